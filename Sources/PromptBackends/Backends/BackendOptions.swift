/// How a backend's optional request parameters are chosen: learned (`auto`) or fixed by configuration.
public struct BackendOptions: Sendable, Equatable {
    public enum Switch: String, Sendable, CaseIterable {
        case auto, on, off
    }

    /// How a reply's shape is asked for.
    public enum StructuredOutput: String, Sendable, CaseIterable {
        /// The strongest the provider takes: on an OpenAI-compatible server, a grammar where its model list says it
        /// is llama.cpp's (`owned_by: llamacpp`, read once), a JSON schema elsewhere, then plain text after a refusal;
        /// a JSON schema on Ollama; plain text on Anthropic.
        case auto
        /// llama.cpp's GBNF `grammar`, generated from the word rule (``PromptGrammar``).
        case grammar
        /// A JSON schema with the item count and a length bound per item (``PromptListSchema``).
        case jsonSchema = "json_schema"
        /// `on` is the JSON schema, as before grammars.
        case on
        /// Plain text, shaped only by the template.
        case off
    }

    /// Which field carries the token limit.
    public enum MaxTokensParameter: String, Sendable, CaseIterable {
        case auto
        case maxTokens = "max_tokens"
        case maxCompletionTokens = "max_completion_tokens"
    }

    /// `LLM_STRUCTURED_OUTPUT`: a grammar (`grammar`), JSON matching the prompt list's schema (`response_format` on
    /// OpenAI-compatible servers, `format` on Ollama), or neither; Anthropic is always asked for plain text.
    public var structuredOutput: StructuredOutput
    /// `LLM_MAX_TOKENS_PARAMETER`: `max_tokens`, or `max_completion_tokens` for OpenAI's reasoning models.
    public var maxTokensParameter: MaxTokensParameter
    /// `LLM_SEND_TEMPERATURE`: send the template's temperature (`on`), never (`off`), or until refused (`auto`).
    public var sendTemperature: Switch

    public init(structuredOutput: StructuredOutput = .auto, maxTokensParameter: MaxTokensParameter = .auto, sendTemperature: Switch = .auto) {
        self.structuredOutput = structuredOutput
        self.maxTokensParameter = maxTokensParameter
        self.sendTemperature = sendTemperature
    }
}
