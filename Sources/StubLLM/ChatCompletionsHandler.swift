import Foundation
import Hummingbird

/// Answers one chat completion request according to the current ``StubBehaviour``.
struct ChatCompletionsHandler: Sendable {
    let state: StubLLMState

    @Sendable func handle(request: Request, context: some RequestContext) async throws -> Response {
        let (behaviour, latency) = await state.recordCall()
        defer { Task { await state.recordAnswered() } }
        let chat = try? await request.decode(as: ChatRequest.self, context: context)
        if latency > 0 {
            try await Task.sleep(for: .milliseconds(latency))
        }
        let system = chat?.messages.first { $0.role == "system" }?.content ?? ""
        let user = chat?.messages.last { $0.role == "user" }?.content ?? ""
        switch behaviour {
        case .serverError:
            return json(#"{"error":{"message":"stub: internal error"}}"#, status: .internalServerError)
        case .rateLimited:
            var response = json(#"{"error":{"message":"stub: rate limited"}}"#, status: .tooManyRequests)
            response.headers[.retryAfter] = "30"
            return response
        case .garbage:
            return json("}{ this is not json <html>", status: .ok)
        case .truncated:
            let whole = completion(StubReplies.content(for: .normal, system: system, user: user))
            return json(String(whole.prefix(whole.count / 2)), status: .ok)
        case .hang:
            // Accept, then say nothing for an hour, or until released.
            for _ in 0..<36_000 where await !state.isReleased {
                try await Task.sleep(for: .milliseconds(100))
            }
            return json("{}", status: .ok)
        case .trickle:
            let body = completion(StubReplies.content(for: .normal, system: system, user: user))
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    for byte in body.utf8 where await !state.isReleased {
                        try await writer.write(ByteBuffer(bytes: [byte]))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                }
            )
        default:
            return json(completion(StubReplies.content(for: behaviour, system: system, user: user)), status: .ok)
        }
    }

    private func completion(_ content: String) -> String {
        let reply = ChatResponse(choices: [.init(message: .init(role: "assistant", content: content))])
        let data = (try? JSONEncoder().encode(reply)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private func json(_ body: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// The part of a Chat Completions request the stub reads.
struct ChatRequest: Codable {
    struct Message: Codable {
        var role: String
        var content: String
    }
    var model: String?
    var messages: [Message]
}

/// A minimal Chat Completions response.
struct ChatResponse: Codable {
    struct Choice: Codable {
        var index = 0
        var message: ChatRequest.Message
        var finishReason = "stop"

        enum CodingKeys: String, CodingKey {
            case index, message
            case finishReason = "finish_reason"
        }
    }
    var id = "chatcmpl-stub"
    var object = "chat.completion"
    var model = "stub-llm"
    var choices: [Choice]
}
