import PromptDomain

/// Anthropic's Messages API: `POST {baseURL}/v1/messages` with `x-api-key` and `anthropic-version`.
public struct AnthropicBackend: LLMBackend {
    public static let apiVersion = "2023-06-01"

    public let identity: BackendIdentity
    private let http: JSONOverHTTP
    private let endpoint: String
    private let apiKey: String?

    /// `baseURL` is `https://api.anthropic.com`, with or without `/v1`: people write it both ways, SDK examples differ.
    public init(transport: any HTTPTransport, baseURL: String, model: String, apiKey: String?) {
        self.http = JSONOverHTTP(transport: transport, secrets: apiKey.map { [$0] } ?? [])
        self.endpoint = Self.messagesURL(baseURL: baseURL)
        self.identity = BackendIdentity(provider: "anthropic", model: model)
        self.apiKey = apiKey
    }

    public func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        let observer = request.observer
        let body = MessagesRequest(
            model: identity.model,
            system: [.init(text: request.system)],
            messages: request.messages,
            maxTokens: request.maxTokens,
            temperature: request.parameters.temperature.map { min($0, 1) },
            stream: observer != nil
        )
        var headers: [(name: String, value: String)] = [("anthropic-version", Self.apiVersion)]
        if let apiKey { headers.append(("x-api-key", apiKey)) }
        if let observer {
            let streamed = StreamedReply(observer: observer, parse: StreamedReply.anthropic)
            return try await http.postStreaming(body, to: endpoint, headers: headers + request.traceFields, timeout: timeout, reading: streamed)
        }
        let reply = try await http.post(
            body,
            to: endpoint,
            headers: headers + request.traceFields,
            timeout: timeout,
            expecting: MessagesResponse.self
        )
        let text = reply.content.filter { $0.type == "text" }.compactMap(\.text).joined(separator: "\n")
        return LLMReply(
            text: text,
            finishReason: reply.stopReason.map(FinishReason.init),
            usage: reply.usage.map { TokenUsage(prompt: $0.prompt, completion: $0.outputTokens, cached: $0.cacheReadInputTokens ?? 0) }
        )
    }

    /// `{base}/v1/messages`, whether `baseURL` ends in `/v1`, `/v1/` or neither.
    package static func messagesURL(baseURL: String) -> String {
        var base = Substring(baseURL)
        while base.hasSuffix("/") { base = base.dropLast() }
        if base.hasSuffix("/v1") { base = base.dropLast(3) }
        return String(base) + "/v1/messages"
    }

    private struct MessagesRequest: Encodable {
        /// The system message, the same bytes for every request of a template and language, as one text block marked
        /// for Anthropic's prompt cache (`cache_control`): a later call reads it from the cache, once it is long
        /// enough for the model to cache at all (1,024 tokens on most).
        struct CachedText: Encodable {
            var type = "text"
            var text: String
            var cacheControl = ["type": "ephemeral"]

            enum CodingKeys: String, CodingKey {
                case type, text
                case cacheControl = "cache_control"
            }
        }
        var model: String
        var system: [CachedText]
        var messages: [LLMRequest.Message]
        var maxTokens: Int
        // Anthropic accepts 0...1.
        var temperature: Double?
        var stream: Bool

        // Spelt out: requests are encoded without a key strategy (``JSONOverHTTP``).
        enum CodingKeys: String, CodingKey {
            case model, system, messages, temperature, stream
            case maxTokens = "max_tokens"
        }
    }

    private struct MessagesResponse: Decodable {
        struct Block: Decodable {
            var type: String
            var text: String?
        }
        struct Usage: Decodable {
            /// The tokens after the cache's breakpoint; those read from or written to the cache are counted apart.
            var inputTokens: Int
            var outputTokens: Int
            var cacheReadInputTokens: Int?
            var cacheCreationInputTokens: Int?
            var prompt: Int { inputTokens + (cacheReadInputTokens ?? 0) + (cacheCreationInputTokens ?? 0) }
        }
        var content: [Block]
        var stopReason: String?
        var usage: Usage?
    }
}
