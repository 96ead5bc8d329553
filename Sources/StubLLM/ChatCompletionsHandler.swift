import Foundation
import Hummingbird

/// Answers one model request according to the current ``StubBehaviour``, in the API shape of its route.
struct ChatCompletionsHandler: Sendable {
    let state: StubLLMState
    let shape: ReplyShape

    @Sendable func handle(request: Request, context: StubRequestContext) async throws -> Response {
        let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
        let traceparent = request.headers.first { $0.name.canonicalName == "traceparent" }?.value
        let (behaviour, latency) = await state.recordCall(body: body, traceparent: traceparent, remotePort: context.remotePort)
        defer { Task { await state.recordAnswered() } }
        let chat = try? JSONDecoder().decode(ChatRequest.self, from: Data(body.utf8))
        if latency > 0 {
            try await Task.sleep(for: .milliseconds(latency))
        }
        // Anthropic sends the system prompt beside the messages; the others send it as the first message.
        let system = chat?.system ?? chat?.messages.first { $0.role == "system" }?.content ?? ""
        let user = chat?.messages.filter { $0.role == "user" }.map(\.content).joined(separator: "\n") ?? ""
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        if let refusal = refusal(behaviour, body: body, key: bearer) { return refusal }
        switch behaviour {
        case .reasoningEmpty:
            return json(shape.reply(nil, cutOff: true, promptCharacters: body.count), status: .ok)
        case .cutAtLength:
            let good = StubReplies.content(for: .numbered, system: system, user: user)
            return json(shape.reply(good + "\n7. What made you", cutOff: true, promptCharacters: body.count), status: .ok)
        case .rateLimited:
            var response = json(#"{"error":{"message":"stub: rate limited"}}"#, status: .tooManyRequests)
            response.headers[.retryAfter] = await state.retryAfter
            return response
        case .garbage:
            return json("}{ this is not json <html>", status: .ok)
        case .truncated:
            let whole = shape.reply(StubReplies.content(for: .normal, system: system, user: user))
            return json(String(whole.prefix(whole.count / 2)), status: .ok)
        case .hang:
            // Accept, then say nothing for an hour, or until released.
            for _ in 0..<36_000 where await !state.isReleased {
                try await Task.sleep(for: .milliseconds(100))
            }
            return json("{}", status: .ok)
        case .trickle:
            let reply = shape.reply(StubReplies.content(for: .normal, system: system, user: user))
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    for byte in reply.utf8 where await !state.isReleased {
                        try await writer.write(ByteBuffer(bytes: [byte]))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                }
            )
        default:
            let content = StubReplies.content(for: behaviour, system: system, user: user)
            if chat?.stream == true { return await streamed(content, promptCharacters: body.count) }
            // A model writes at the same pace whether or not it streams: the whole reply comes when its last token would.
            let tokenDelay = await state.tokenDelayMilliseconds
            if tokenDelay > 0 { try await Task.sleep(for: .milliseconds(tokenDelay * max(0, content.count / 4 - 1))) }
            return json(shape.reply(content, promptCharacters: body.count), status: .ok)
        }
    }

    /// The provider's error for a behaviour that refuses this request, as each API words it; nil to answer it.
    /// `key` is the API key the request carried: a careless provider echoes it whole in its 401.
    private func refusal(_ behaviour: StubBehaviour, body: String, key: String?) -> Response? {
        switch behaviour {
        case .serverError:
            return json(shape.error("stub: internal error", type: "server_error"), status: .internalServerError)
        case .unauthorized:
            let message = "Incorrect API key provided: \(key ?? "sk-stub-1234567890abcdef"). You can find your API key in your account."
            return json(shape.error(message, type: "authentication_error"), status: .unauthorized)
        case .badRequest,
            .reasoningModel where body.contains(#""max_tokens""#):
            let message = "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
            return json(shape.error(message, type: "invalid_request_error"), status: .badRequest)
        case .reasoningModel where body.contains(#""temperature""#):
            let message = "Unsupported value: 'temperature' does not support 0.8 with this model. Only the default (1) value is supported."
            return json(shape.error(message, type: "invalid_request_error"), status: .badRequest)
        case .noGrammar where body.contains(#""grammar""#), .noStructuredOutput where body.contains(#""grammar""#):
            return json(shape.error("Unrecognized request argument supplied: grammar", type: "invalid_request_error"), status: .badRequest)
        case .noStructuredOutput where body.contains(#""response_format""#) || body.contains(#""format""#):
            let message = "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."
            return json(shape.error(message, type: "invalid_request_error"), status: .badRequest)
        default:
            return nil
        }
    }

    /// `content` as this API streams it, a token at a time: four characters, the stub's usage estimate for English.
    private func streamed(_ content: String, promptCharacters: Int) async -> Response {
        let (delay, stallAfter) = (await state.tokenDelayMilliseconds, await state.stallAfterTokens)
        let characters = Array(content)
        let tokens = stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<min($0 + 4, characters.count)]) }
        let (state, shape) = (self.state, self.shape)
        return Response(
            status: .ok,
            headers: [.contentType: shape == .ollama ? "application/x-ndjson" : "text/event-stream"],
            body: ResponseBody { writer in
                for line in shape.streamOpening() { try await writer.write(ByteBuffer(string: line)) }
                for (index, token) in tokens.enumerated() {
                    if let stallAfter, index >= stallAfter {
                        // Stalled: the connection stays open and silent until the client gives up, or until the stub
                        // is released, which cuts the stream there, without its ending.
                        while await !state.isReleased { try await Task.sleep(for: .milliseconds(50)) }
                        try await writer.finish(nil)
                        return
                    }
                    if index > 0, delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
                    try await writer.write(ByteBuffer(string: shape.streamToken(token)))
                }
                for line in shape.streamClosing(promptCharacters: promptCharacters, completionTokens: tokens.count) {
                    try await writer.write(ByteBuffer(string: line))
                }
                try await writer.finish(nil)
            }
        )
    }

    private func json(_ body: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// The part of a model request the stub reads, in any of the three shapes.
struct ChatRequest: Decodable {
    struct Message: Decodable {
        var role: String
        var content: String
    }
    struct Block: Decodable { var text: String }
    var system: String?
    var messages: [Message]
    var stream: Bool?

    enum CodingKeys: String, CodingKey { case system, messages, stream }

    // Anthropic's `system` is a string or text blocks: the service sends one block, marked for the prompt cache.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messages = try container.decode([Message].self, forKey: .messages)
        stream = try container.decodeIfPresent(Bool.self, forKey: .stream)
        system =
            (try? container.decodeIfPresent(String.self, forKey: .system))
            ?? (try? container.decodeIfPresent([Block].self, forKey: .system))?.map(\.text).joined()
    }
}
