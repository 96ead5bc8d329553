/// How a backend's optional request parameters are chosen: learned (`auto`) or fixed by configuration.
public struct BackendOptions: Sendable, Equatable {
    /// `auto`, `on` or `off`.
    public enum Switch: String, Sendable, CaseIterable {
        case auto, on, off
    }

    /// Which field carries the token limit.
    public enum MaxTokensParameter: String, Sendable, CaseIterable {
        case auto
        case maxTokens = "max_tokens"
        case maxCompletionTokens = "max_completion_tokens"
    }

    /// `LLM_STRUCTURED_OUTPUT`: ask for JSON matching the prompt list's schema (`response_format` on OpenAI-compatible
    /// servers, `format` on Ollama). Anthropic is always asked for plain text.
    public var structuredOutput: Switch
    /// `LLM_MAX_TOKENS_PARAMETER`: `max_tokens`, or `max_completion_tokens` for OpenAI's reasoning models.
    public var maxTokensParameter: MaxTokensParameter
    /// `LLM_SEND_TEMPERATURE`: send the template's temperature (`on`), never (`off`), or until refused (`auto`).
    public var sendTemperature: Switch

    /// Creates options; every one `auto` by default.
    public init(structuredOutput: Switch = .auto, maxTokensParameter: MaxTokensParameter = .auto, sendTemperature: Switch = .auto) {
        self.structuredOutput = structuredOutput
        self.maxTokensParameter = maxTokensParameter
        self.sendTemperature = sendTemperature
    }
}

/// The JSON schema structured output asks for: `{"prompts": ["…", …]}`, strict.
enum PromptListSchema {
    struct Schema: Encodable, Sendable {
        struct Properties: Encodable, Sendable {
            struct Prompts: Encodable, Sendable {
                struct Items: Encodable, Sendable {
                    var type = "string"
                }
                var type = "array"
                var items = Items()
            }
            var prompts = Prompts()
        }
        var type = "object"
        var properties = Properties()
        var required = ["prompts"]
        var additionalProperties = false
    }

    static let schema = Schema()
}
