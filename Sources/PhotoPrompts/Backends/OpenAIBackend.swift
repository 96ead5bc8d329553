import Foundation

/// The OpenAI Chat Completions API, which vLLM, llama.cpp's server, LM Studio and Ollama's `/v1` also speak.
public struct OpenAIBackend: LLMBackend {
    /// The provider and model.
    public let identity: BackendIdentity
    private let transport: any HTTPTransport
    private let endpoint: String
    private let apiKey: String?

    /// Creates a backend that POSTs to `{baseURL}/chat/completions`, with a Bearer key when `apiKey` is set.
    public init(transport: any HTTPTransport, baseURL: String, model: String, apiKey: String?) {
        self.transport = transport
        self.endpoint = baseURL.hasSuffix("/") ? baseURL + "chat/completions" : baseURL + "/chat/completions"
        self.identity = BackendIdentity(provider: "openai", model: model)
        self.apiKey = apiKey
    }

    /// Sends the prompt as a system and a user message and returns the first choice's content.
    public func complete(_ prompt: RenderedPrompt, timeout: Duration) async throws -> String {
        let body = ChatRequest(
            model: identity.model,
            messages: [.init(role: "system", content: prompt.system), .init(role: "user", content: prompt.user)]
        )
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Accept", "application/json")]
        if let apiKey, !apiKey.isEmpty {
            headers.append(("Authorization", "Bearer \(apiKey)"))
        }
        let request = HTTPTransportRequest(
            method: "POST", url: endpoint, headers: headers, body: Array(try JSONEncoder().encode(body)), timeout: timeout
        )
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
        guard (200..<300).contains(response.status) else {
            throw BackendError.httpStatus(response.status, detail: "from \(endpoint)")
        }
        guard let reply = try? JSONDecoder().decode(ChatResponse.self, from: Data(response.body)),
            let content = reply.choices.first?.message.content
        else {
            throw BackendError.unreadableReply("\(response.body.count) bytes that are not a chat completion")
        }
        return content
    }

    private struct ChatRequest: Encodable {
        struct Message: Codable {
            var role: String
            var content: String
        }
        var model: String
        var messages: [Message]
        var temperature = 0.8
        var stream = false
    }

    private struct ChatResponse: Decodable {
        struct Choice: Decodable {
            struct Message: Decodable {
                var content: String?
            }
            var message: Message
        }
        var choices: [Choice]
    }
}
