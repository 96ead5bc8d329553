import PromptDomain

/// Ollama's native chat API: `POST {baseURL}/api/chat`; streamed (one JSON object per line) only for a client that streams.
public struct OllamaBackend: LLMBackend {
    public let identity: BackendIdentity
    private let http: JSONOverHTTP
    private let endpoint: String
    private let shape: RequestShape

    /// Creates a backend; `baseURL` is e.g. `http://127.0.0.1:11434`.
    public init(transport: any HTTPTransport, baseURL: String, model: String, options: BackendOptions = BackendOptions()) {
        self.http = JSONOverHTTP(transport: transport)
        self.endpoint = baseURL.appendingPathComponentForURL("api/chat")
        self.identity = BackendIdentity(provider: "ollama", model: model)
        self.shape = RequestShape(options: options, backend: identity, strongest: .jsonSchema)
    }

    public func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        try await shape.calling(within: timeout) { choices, remaining in
            try await complete(request, choices: choices, timeout: remaining)
        }
    }

    private func complete(_ request: LLMRequest, choices: RequestShape.Choices, timeout: Duration) async throws -> LLMReply {
        let observer = request.observer
        let body = ChatRequest(
            model: identity.model,
            messages: [.init(role: "system", content: request.system)] + request.messages,
            stream: observer != nil,
            // As for OpenAI: a streamed reply is asked for as plain lines.
            format: choices.output == .jsonSchema && observer == nil ? PromptListSchema(request.constraint) : nil,
            options: .init(
                temperature: choices.temperature ? request.parameters.temperature : nil,
                numPredict: request.maxTokens,
                seed: request.parameters.seed
            )
        )
        if let observer {
            let streamed = StreamedReply(observer: observer, parse: StreamedReply.ollama)
            return try await http.postStreaming(body, to: endpoint, headers: request.traceFields, timeout: timeout, reading: streamed)
        }
        let reply = try await http.post(body, to: endpoint, headers: request.traceFields, timeout: timeout, expecting: ChatResponse.self)
        let usage = TokenUsage(prompt: reply.promptEvalCount, completion: reply.evalCount)
        return LLMReply(text: reply.message.content, finishReason: reply.doneReason.map(FinishReason.init), usage: usage)
    }

    private struct ChatRequest: Encodable {
        struct Options: Encodable {
            var temperature: Double?
            var numPredict: Int
            var seed: Int?

            // Spelt out: requests are encoded without a key strategy (``JSONOverHTTP``).
            enum CodingKeys: String, CodingKey {
                case temperature, seed
                case numPredict = "num_predict"
            }
        }
        var model: String
        var messages: [LLMRequest.Message]
        var stream: Bool
        var format: PromptListSchema?
        var options: Options
    }

    private struct ChatResponse: Decodable {
        struct Message: Decodable {
            var content: String
        }
        var message: Message
        var doneReason: String?
        var promptEvalCount: Int?
        var evalCount: Int?
    }
}
