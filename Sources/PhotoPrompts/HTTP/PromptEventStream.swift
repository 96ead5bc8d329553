import Foundation
import Hummingbird
import Logging
import PromptDomain
import PromptGeneration
import Synchronization
import Tracing

/// Server-Sent Events on the prompt routes for `Accept: text/event-stream`: an `event: prompt` per card as soon as it
/// is known good and unseen, then `event: done` with the JSON API's answer. Nothing is sent until the model is asked,
/// so an early error (400, 404, 409, 429) is the ordinary JSON answer. An answer needing no model (cache, surplus,
/// replay) is its events at once; a request joining an identical one streams that run's prompts.
struct PromptEventStream: Sendable {
    /// How often a comment line is sent while no event is due.
    let keepAlive: Duration
    /// Where the stream is a span, with an event for each card, `done` or `error`.
    let tracer: any Tracer

    /// What the work made: the answer's bytes, and its prompts, sent as cards without reading the bytes back.
    typealias Answer = (stored: StoredResponse, prompts: [Prompt])

    static func isRequested(by request: Request) -> Bool {
        request.headers[values: .accept].contains { $0.lowercased().contains("text/event-stream") }
    }

    private enum Event: Sendable {
        case prompt(Prompt, position: Int)
        case keepAlive
    }

    /// Where a request's stream ends: the key its answer is kept under, and the logger and trace id of its error event.
    private struct Ending: Sendable {
        var held: HeldKey?
        let logger: Logger
        let traceID: String?
    }

    /// Whether `response` is a stream, which keeps its own answer as it ends.
    static func isStream(_ response: Response) -> Bool {
        response.headers[.contentType]?.hasPrefix("text/event-stream") == true
    }

    /// Runs `work` (the JSON API's own, given a ``SessionStream``) and answers with its events; the answer is kept
    /// under the context's held key before `done` is sent.
    func respond(
        for context: AppRequestContext,
        _ work: @escaping @Sendable (SessionStream) async throws -> Answer
    ) async throws -> Response {
        let end = Ending(held: context.heldKey, logger: context.logger, traceID: context.traceID)
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let (modelAsked, markAsked) = AsyncStream.makeStream(of: Void.self)
        let asked = Mutex(false)
        let stream = SessionStream(
            modelAsked: {
                asked.withLock { $0 = true }
                markAsked.finish()
            },
            prompt: { prompt, position in sink.yield(.prompt(prompt, position: position)) }
        )
        let worker = Task {
            defer {
                markAsked.finish()
                sink.finish()
            }
            return try await work(stream)
        }
        await withTaskCancellationHandler {
            for await _ in modelAsked {}
        } onCancel: {
            worker.cancel()
        }
        guard asked.withLock({ $0 }) else {
            // Answered without the model: an error is the ordinary JSON answer; an answer is its events at once.
            let answer = try await worker.value
            return Self.response { writer in
                try await Self.finish(with: .success(answer), afterSending: 0, to: &writer, end)
            }
        }
        return streaming(events, until: worker, beatingInto: sink, end)
    }

    /// A kept answer sent again: its cards and `done` at once, or the error it was, as JSON.
    func replay(_ stored: StoredResponse, logger: Logger) -> Response {
        guard stored.status == 200 else { return stored.response(replayed: true) }
        // A replay is only its bytes: one that does not read back (a damaged row) is our fault, not an empty `done`.
        let answer: Result<Answer, any Error>
        if let prompts = try? SnakeCaseJSON.decoder.decode(AnswerPrompts.self, from: Data(stored.body)).prompts {
            answer = .success((stored, prompts))
        } else {
            logger.error("a kept answer does not read back as prompts; the stream ends with an error")
            answer = .failure(APIError.internalFault)
        }
        return Self.response { writer in
            try await Self.finish(with: answer, afterSending: 0, to: &writer, Ending(logger: logger, traceID: nil))
        }
    }

    /// The answer once the model is asked: a comment, then each prompt as it is found, keep-alive comments while
    /// none comes, then the rest and `done` from the work's result.
    private func streaming(
        _ events: AsyncStream<Event>,
        until worker: Task<Answer, any Error>,
        beatingInto sink: AsyncStream<Event>.Continuation,
        _ end: Ending
    ) -> Response {
        Self.response { [keepAlive, tracer] writer in
            // The request's span is current while its body is written: this one is its child.
            let span = tracer.startSpan("stream", context: ServiceContext.current ?? .topLevel)
            defer { span.end() }
            do {
                // Beats run in the body's group, cancelled when the events end; the group discards the sleep's error.
                try await withThrowingTaskGroup(of: Void.self) { beats in
                    beats.addTask {
                        while true {
                            try await Task.sleep(for: keepAlive)
                            sink.yield(.keepAlive)
                        }
                    }
                    defer { beats.cancelAll() }
                    try await writer.write(Self.comment("waiting for the model"))
                    var sent = 0
                    for await event in events {
                        switch event {
                        case .prompt(let prompt, let position):
                            try await writer.write(Self.promptEvent(prompt, position: position))
                            span.addEvent(SpanEvent(name: "prompt", attributes: ["photo_prompts.position": .int64(Int64(position))]))
                            sent = max(sent, position + 1)
                        case .keepAlive:
                            try await writer.write(Self.comment("keep-alive"))
                        }
                    }
                    try await Self.finish(with: await worker.result, afterSending: sent, to: &writer, end)
                }
                span.addEvent("done")
            } catch {
                // The client went away: the work stops as it would for a JSON request whose caller left.
                span.addEvent("client left")
                worker.cancel()
                await end.held?.release()
                throw error
            }
        }
    }

    /// The prompts not sent yet, then `done` with the answer, once it is kept under `held`; or `error` with the
    /// JSON error, when the work failed after the stream began (a client error is kept as the answer).
    private static func finish(
        with result: Result<Answer, any Error>,
        afterSending sent: Int,
        to writer: inout any ResponseBodyWriter,
        _ end: Ending
    ) async throws {
        let (held, logger, traceID) = (end.held, end.logger, end.traceID)
        switch result {
        case .success(let (stored, prompts)):
            do {
                try await held?.keep(status: stored.status, body: stored.body, logger: logger)
            } catch {
                // Given back already: the error is not kept either.
                return try await finish(with: .failure(error), afterSending: sent, to: &writer, Ending(logger: logger, traceID: traceID))
            }
            for (position, prompt) in prompts.enumerated() where position >= sent {
                try await writer.write(promptEvent(prompt, position: position))
            }
            try await writer.write(event("done", stored.body))
        case .failure(let error):
            var apiError = APIError.translating(error, logger: logger)
            apiError.traceID = traceID
            let body = [UInt8]((try? apiError.encodedBody()) ?? Data())
            if apiError.status.code < 500 {
                try? await held?.keep(status: Int(apiError.status.code), body: body, logger: logger)
            } else {
                await held?.release()
            }
            try await writer.write(event("error", body))
        }
        try await writer.finish(nil)
    }

    private struct AnswerPrompts: Decodable { var prompts: [Prompt] }

    private static func response(_ body: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(body)
        )
    }

    /// `{"position": 0, "prompt": {…}}`: the prompt exactly as the answer shows it, and where.
    static func promptEvent(_ prompt: Prompt, position: Int) -> ByteBuffer {
        var json = JSONBytesWriter(reservingCapacity: 256)
        json.beginObject()
        json.key("position")
        json.int(position)
        json.key("prompt")
        prompt.write(to: &json)
        json.endObject()
        return event("prompt", json.bytes)
    }

    static func event(_ name: String, _ data: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer(string: "event: \(name)\ndata: ")
        buffer.writeBytes(data)
        buffer.writeString("\n\n")
        return buffer
    }

    static func comment(_ text: String) -> ByteBuffer {
        ByteBuffer(string: ": \(text)\n\n")
    }
}
