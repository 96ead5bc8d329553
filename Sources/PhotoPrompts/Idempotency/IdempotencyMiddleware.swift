import Foundation
import HTTPTypes
import Hummingbird
import PromptDomain

/// `Idempotency-Key` on the two prompt routes (``IdempotentRequests``): the handler runs once per key, and a retry
/// gets its answer again with `Idempotent-Replayed: true`, as events when it asks for a stream.
///
/// A JSON answer is kept here before it is sent. A streamed answer is still being written when this returns, so the
/// stream keeps it as it ends, through the ``HeldKey`` this puts in the request's context. A client error (4xx) the
/// handler's work throws is kept as the answer; one met before the work began (the body, the rate limits) and any
/// other error give the key back, so a retry runs the request again.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let idempotency: IdempotentRequests
    /// The request's deadline from its arrival, the handler's own: waiting for another request's answer, and the
    /// handler's work after the wait, end by it.
    let deadline: @Sendable (ContinuousClock.Instant) -> ContinuousClock.Instant
    let events: PromptEventStream

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let key = try Self.key(of: request) else { return try await next(request, context) }
        var request = request
        let body = try await request.collectBody(upTo: JSONRequestDecoder.maximumBodyBytes)
        // What makes two requests "the same": route, `X-User-ID` and body bytes (which hold `user_id`), as sent: the
        // body is decoded once, by the route. The client key scopes the key itself.
        let userHeader = HTTPField.Name("X-User-ID").flatMap { request.headers[$0] } ?? ""
        let fingerprint = ContentHash.sha256Hex(
            "\(request.method.rawValue)\u{0}\(request.uri.path)\u{0}\(userHeader)\u{0}" + String(buffer: body)
        )
        let claim = try await idempotency.claim(
            client: context.client ?? Caller.openClient,
            key: key,
            fingerprint: fingerprint,
            deadline: deadline(context.receivedAt),
            logger: context.logger
        )
        switch claim {
        case .replay(let stored):
            context.requestLog.set("idempotent_replay", "true")
            guard PromptEventStream.isRequested(by: request) else { return stored.response(replayed: true) }
            return events.replay(stored, logger: context.logger)
        case .held(let held):
            var context = context
            context.heldKey = held
            return try await answer(next, request, context, keepingUnder: held)
        }
    }

    /// The handler's answer, kept under `held` unless it is a stream, which keeps its own.
    private func answer(
        _ next: (Request, Context) async throws -> Response,
        _ request: Request,
        _ context: Context,
        keepingUnder held: HeldKey
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch var error as APIError where error.status.code < 500 && held.hasBegun {
            // A replay answers with the trace of the request that met the error.
            error.traceID = context.traceID
            try await held.keep(status: Int(error.status.code), body: [UInt8](try error.encodedBody()), logger: context.logger)
            throw error
        } catch {
            await held.release()
            throw error
        }
        guard !PromptEventStream.isStream(response) else { return response }
        let body = try await Self.bytes(of: response.body)
        let timing = HTTPField.Name("Server-Timing").flatMap { response.headers[$0] }
        try await held.keep(status: Int(response.status.code), body: body, serverTiming: timing, logger: context.logger)
        response.body = ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        return response
    }

    /// The `Idempotency-Key` header: 1 to 255 visible ASCII characters.
    static func key(of request: Request) throws -> String? {
        guard let name = HTTPField.Name("Idempotency-Key"), let value = request.headers[name] else { return nil }
        guard (1...255).contains(value.count), value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw APIError.invalidField("Idempotency-Key", "must be 1 to 255 visible ASCII characters")
        }
        return value
    }

    /// The bytes of a body already in memory, as every JSON answer's is.
    private static func bytes(of body: ResponseBody) async throws -> [UInt8] {
        let collected = CollectedBytes()
        try await body.write(BodyCollector(collected: collected))
        return collected.bytes
    }
}

private final class CollectedBytes {
    var bytes: [UInt8] = []
}

/// A response body writer that keeps what it is given.
private struct BodyCollector: ResponseBodyWriter {
    let collected: CollectedBytes
    mutating func write(_ buffer: ByteBuffer) async throws { collected.bytes += buffer.readableBytesView }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
