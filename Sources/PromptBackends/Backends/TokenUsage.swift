/// Tokens one call read and wrote, as the provider counted them.
public struct TokenUsage: Sendable, Equatable {
    /// Tokens of the prompt: the rendered template and, on a re-ask, the conversation so far.
    public var prompt: Int
    public var completion: Int
    /// Of `prompt`, the tokens the provider read from its prompt cache instead of evaluating them: llama.cpp's and
    /// OpenAI's `cached_tokens`, Anthropic's `cache_read_input_tokens`. The template's constant part comes first in
    /// every request so that this is most of it.
    public var cached: Int

    public init(prompt: Int, completion: Int, cached: Int = 0) {
        self.prompt = prompt
        self.completion = completion
        self.cached = cached
    }

    /// The count from two optional numbers (Ollama's last line, stream chunks): nil unless the provider reported both.
    package init?(prompt: Int?, completion: Int?) {
        guard let prompt, let completion else { return nil }
        self.init(prompt: prompt, completion: completion)
    }

    /// Prompt and completion tokens together: what a call costs.
    public var total: Int { prompt + completion }

    /// The sum of two calls' counts; `nil` only when neither provider reported any.
    public static func sum(_ lhs: TokenUsage?, _ rhs: TokenUsage?) -> TokenUsage? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return TokenUsage(prompt: lhs.prompt + rhs.prompt, completion: lhs.completion + rhs.completion, cached: lhs.cached + rhs.cached)
    }
}

/// `prompt_tokens_details` of an OpenAI-style usage: `{"cached_tokens": 103}`, which llama.cpp's server reports too.
struct CachedTokens: Decodable {
    var cachedTokens: Int?
}
