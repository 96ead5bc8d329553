import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import Synchronization

/// Reading the prompt routes' Server-Sent Events as they arrive, each stamped with when it did.
extension ServiceClient {
    /// One event of a stream.
    struct Event: Sendable {
        var name: String
        var data: String
        /// When its blank line arrived, from when the request was sent.
        var at: Duration

        var json: [String: any Sendable] {
            get throws {
                guard let object = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: any Sendable] else {
                    throw FixtureError("event data is not a JSON object: \(data)")
                }
                return object
            }
        }
    }

    /// A streamed answer: the status and headers, its events and comment lines in order, and the whole body.
    struct EventStream: Sendable {
        var status: Int
        var headers: [String: String]
        var events: [Event]
        var comments: [String]
        var body: [UInt8]

        var prompts: [Event] { events.filter { $0.name == "prompt" } }
        var done: Event? { events.first { $0.name == "done" } }
    }

    /// POSTs with `Accept: text/event-stream` and reads the answer as it arrives.
    func stream(_ path: String, json: String? = nil, headers: [(name: String, value: String)] = []) async throws -> EventStream {
        var headers = headers + [("Accept", "text/event-stream")]
        if json != nil { headers.append(("Content-Type", "application/json")) }
        if let userID, !(json?.contains(#""user_id""#) ?? false) { headers.append(("X-User-ID", userID)) }
        let parser = EventParser(start: .now)
        var request = HTTPTransportRequest(
            method: "POST",
            url: "http://127.0.0.1:\(try livePort)\(path)",
            headers: headers,
            body: json.map { Array($0.utf8) },
            timeout: .seconds(30)
        )
        request.onBodyChunk = { bytes in parser.receive(bytes) }
        let response = try await Self.transport.send(request)
        let (events, comments) = parser.parsed
        return EventStream(status: response.status, headers: response.headers, events: events, comments: comments, body: response.body)
    }
}

/// Splits `text/event-stream` into events as its bytes arrive.
private final class EventParser: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var name = "message"
        var data: [String] = []
        var events: [ServiceClient.Event] = []
        var comments: [String] = []
    }

    private let start: ContinuousClock.Instant
    private let state = Mutex(State())

    init(start: ContinuousClock.Instant) {
        self.start = start
    }

    var parsed: ([ServiceClient.Event], [String]) { state.withLock { ($0.events, $0.comments) } }

    func receive(_ bytes: UnsafeRawBufferPointer) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.pending.append(contentsOf: bytes)
            while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: state.pending[..<newline], as: UTF8.self)
                state.pending.removeSubrange(...newline)
                if line.isEmpty {
                    if !state.data.isEmpty {
                        state.events.append(.init(name: state.name, data: state.data.joined(separator: "\n"), at: now - start))
                    }
                    (state.name, state.data) = ("message", [])
                } else if line.hasPrefix(":") {
                    state.comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
                } else if line.hasPrefix("event:") {
                    state.name = String(line.dropFirst(6)).trimmingCharacters(in: .whitespaces)
                } else if line.hasPrefix("data:") {
                    state.data.append(String(line.dropFirst(5).drop { $0 == " " }))
                }
            }
        }
    }
}
