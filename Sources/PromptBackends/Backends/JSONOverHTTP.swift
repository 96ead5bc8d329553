import Foundation
import PromptDomain

/// The request-response exchange every HTTP backend shares: POST JSON, map transport failures and statuses to
/// ``BackendError``, decode the JSON answer.
package struct JSONOverHTTP: Sendable {
    package let transport: any HTTPTransport
    /// Strings never to repeat in a log line, e.g. the backend's API key echoed in an error message.
    package var secrets: [String] = []

    package func post<Body: Encodable, Reply: Decodable>(
        _ body: Body,
        to url: String,
        headers: [(name: String, value: String)],
        timeout: Duration,
        expecting: Reply.Type
    ) async throws -> Reply {
        let response = try await exchange(body, to: url, headers: headers, accept: "application/json", timeout: timeout, onBodyChunk: nil)
        do {
            return try SnakeCaseJSON.decoder.decode(Reply.self, from: Data(response.body))
        } catch {
            throw BackendError.unreadableReply("\(response.body.count) bytes from \(url) that are not the expected JSON")
        }
    }

    /// POSTs `body` and reads the answer as a stream while it arrives; an error status is read as the whole JSON error.
    package func postStreaming<Body: Encodable>(
        _ body: Body,
        to url: String,
        headers: [(name: String, value: String)],
        timeout: Duration,
        reading reply: StreamedReply
    ) async throws -> LLMReply {
        _ = try await exchange(body, to: url, headers: headers, accept: "text/event-stream, application/x-ndjson", timeout: timeout) { bytes in
            reply.receive(bytes)
        }
        return reply.finish()
    }

    private func exchange<Body: Encodable>(
        _ body: Body,
        to url: String,
        headers: [(name: String, value: String)],
        accept: String,
        timeout: Duration,
        onBodyChunk: (@Sendable (UnsafeRawBufferPointer) -> Void)?
    ) async throws -> HTTPTransportResponse {
        var request = HTTPTransportRequest(
            method: "POST",
            url: url,
            headers: [("Content-Type", "application/json"), ("Accept", accept)] + headers,
            body: Array(try Self.encoder.encode(body)),
            timeout: timeout
        )
        // An error's body goes through it too: one JSON object no stream parser takes for text, read whole below.
        request.onBodyChunk = onBodyChunk
        let response: HTTPTransportResponse
        do {
            response = try await transport.send(request)
        } catch let error as HTTPTransportError {
            switch error.kind {
            case .timedOut: throw BackendError.timedOut(error.detail)
            case .connectionFailed: throw BackendError.unreachable(error.detail)
            case .responseTooLarge, .other: throw BackendError.unreadableReply(error.detail)
            }
        }
        if response.status == 429 {
            throw BackendError.rateLimited(retryAfter: Self.retryAfter(response.headers["retry-after"]), detail: describe(response, from: url))
        }
        guard (200..<300).contains(response.status) else {
            throw BackendError.httpStatus(response.status, detail: describe(response, from: url))
        }
        return response
    }

    /// Without a key strategy: a request may carry a JSON Schema (``PromptListSchema``), whose keywords are camelCase
    /// (`minItems`), so each request type spells its snake_case keys out. Replies are read with ``SnakeCaseJSON/decoder``.
    private static let encoder = JSONEncoder()

    /// Seconds from a `Retry-After` header: delta-seconds or an HTTP date.
    package static func retryAfter(_ value: String?) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = TimeInterval(value) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }
}
