/// Tokens one call read and wrote, as the provider counted them.
public struct TokenUsage: Sendable, Equatable {
    /// Tokens of the prompt: the rendered template and, on a re-ask, the conversation so far.
    public var prompt: Int
    public var completion: Int

    public init(prompt: Int, completion: Int) {
        self.prompt = prompt
        self.completion = completion
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
        return TokenUsage(prompt: lhs.prompt + rhs.prompt, completion: lhs.completion + rhs.completion)
    }
}
