import PromptDomain

/// The OpenAI Chat Completions API, which vLLM, llama.cpp's server, LM Studio and Ollama's `/v1` also speak.
public struct OpenAIBackend: LLMBackend {
    public let identity: BackendIdentity
    private let http: JSONOverHTTP
    private let endpoint: String
    private let modelsEndpoint: String
    private let apiKey: String?
    private let shape: RequestShape

    public init(transport: any HTTPTransport, baseURL: String, model: String, apiKey: String?, options: BackendOptions = BackendOptions()) {
        self.http = JSONOverHTTP(transport: transport, secrets: apiKey.map { [$0] } ?? [])
        self.endpoint = baseURL.appendingPathComponentForURL("chat/completions")
        self.modelsEndpoint = baseURL.appendingPathComponentForURL("models")
        self.identity = BackendIdentity(provider: "openai", model: model)
        self.apiKey = apiKey
        // With `auto`, what this server takes is asked before the first call (``ModelListProbe``).
        self.shape = RequestShape(options: options, backend: identity, strongest: nil)
    }

    private var headers: [(name: String, value: String)] { apiKey.map { [("Authorization", "Bearer \($0)")] } ?? [] }

    public func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        let deadline = ContinuousClock.now + timeout
        if shape.awaitsServerKind {
            // Once per process, within a quarter of this call's budget (2 s at most): an answer is remembered, a
            // failure leaves this call with the JSON schema and the next call asks again.
            let budget = min(timeout / 4, .seconds(2))
            if let strongest = await ModelListProbe.strongestOutput(
                transport: http.transport,
                modelsURL: modelsEndpoint,
                headers: headers,
                timeout: budget
            ) {
                shape.learn(strongest: strongest)
            }
        }
        return try await shape.calling(within: deadline - .now) { choices, remaining in
            try await complete(request, choices: choices, timeout: remaining)
        }
    }

    private func complete(_ request: LLMRequest, choices: RequestShape.Choices, timeout: Duration) async throws -> LLMReply {
        let limit = request.maxTokens
        let observer = request.observer
        // A streamed reply is asked for as lines: a JSON object arrives as one line, so no question could be shown
        // before the last token. A grammar's lines stream as they are written.
        let schema = choices.output == .jsonSchema && observer == nil && request.constraint != nil
        let grammar = choices.output == .grammar ? request.constraint.map(PromptGrammar.gbnf) : nil
        let body = ChatRequest(
            model: identity.model,
            messages: [.init(role: "system", content: request.system)] + request.messages,
            temperature: choices.temperature ? request.parameters.temperature : nil,
            maxTokens: choices.maxCompletionTokens ? nil : limit,
            maxCompletionTokens: choices.maxCompletionTokens ? limit : nil,
            responseFormat: schema ? ResponseFormat(jsonSchema: .init(schema: PromptListSchema(request.constraint))) : nil,
            grammar: grammar,
            // The DRY sampler is llama.cpp's: sent only where the grammar is, which only llama.cpp's server takes.
            dryMultiplier: grammar != nil ? request.parameters.dryMultiplier : nil,
            // So are the tokens' log-probabilities (the fluency rule's), which some of OpenAI's own models refuse.
            logprobs: grammar != nil ? true : nil,
            topLogprobs: grammar != nil ? 1 : nil,
            seed: request.parameters.seed,
            stream: observer != nil,
            // A streamed reply then ends with a chunk that reports the tokens.
            streamOptions: observer != nil ? ["include_usage": true] : nil
        )
        if let observer {
            let streamed = StreamedReply(observer: observer, parse: StreamedReply.openAI)
            return try await http.postStreaming(body, to: endpoint, headers: headers + request.traceFields, timeout: timeout, reading: streamed)
        }
        let reply = try await http.post(body, to: endpoint, headers: headers + request.traceFields, timeout: timeout, expecting: ChatResponse.self)
        guard let choice = reply.choices.first else { throw BackendError.unreadableReply("a chat completion without choices") }
        // `content: null` is what a reasoning model sends when it spent its budget thinking: an empty reply.
        return LLMReply(
            text: choice.message.content ?? "",
            finishReason: choice.finishReason.map(FinishReason.init),
            usage: reply.usage.map {
                TokenUsage(prompt: $0.promptTokens, completion: $0.completionTokens, cached: $0.promptTokensDetails?.cachedTokens ?? 0)
            },
            logprobs: choice.logprobs?.scored
        )
    }

    private struct ChatRequest: Encodable {
        var model: String
        var messages: [LLMRequest.Message]
        var temperature: Double?
        var maxTokens: Int?
        var maxCompletionTokens: Int?
        var responseFormat: ResponseFormat?
        var grammar: String?
        var dryMultiplier: Double?
        var logprobs: Bool?
        var topLogprobs: Int?
        var seed: Int?
        var stream: Bool
        var streamOptions: [String: Bool]?

        // Spelt out: requests are encoded without a key strategy (``JSONOverHTTP``).
        enum CodingKeys: String, CodingKey {
            case model, messages, temperature, stream
            case maxTokens = "max_tokens"
            case maxCompletionTokens = "max_completion_tokens"
            case responseFormat = "response_format"
            case streamOptions = "stream_options"
            case grammar, seed
            case dryMultiplier = "dry_multiplier"
            case logprobs
            case topLogprobs = "top_logprobs"
        }
    }

    /// `{"type": "json_schema", "json_schema": {"name": "journal_prompts", "strict": true, "schema": …}}`.
    private struct ResponseFormat: Encodable {
        struct JSONSchema: Encodable {
            var name = "journal_prompts"
            var strict = true
            var schema: PromptListSchema
        }
        var type = "json_schema"
        var jsonSchema: JSONSchema

        // Spelt out, as for every request.
        enum CodingKeys: String, CodingKey {
            case type
            case jsonSchema = "json_schema"
        }
    }

    private struct ChatResponse: Decodable {
        struct Choice: Decodable {
            struct Message: Decodable {
                var content: String?
            }
            var message: Message
            var finishReason: String?
            var logprobs: ChoiceLogprobs?
        }
        struct Usage: Decodable {
            var promptTokens: Int
            var completionTokens: Int
            var promptTokensDetails: CachedTokens?
        }
        var choices: [Choice]
        var usage: Usage?
    }
}

extension String {
    /// `self` with `component` appended after exactly one slash: base URLs are written both ways.
    package func appendingPathComponentForURL(_ component: String) -> String {
        hasSuffix("/") ? self + component : self + "/" + component
    }
}
