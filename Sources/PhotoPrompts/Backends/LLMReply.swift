/// What a model answered: its text, why it stopped writing, and the tokens the provider says it cost.
public struct LLMReply: Sendable, Equatable {
    /// The assistant's text; empty when the model wrote none (a reasoning model that spent its budget thinking).
    public var text: String
    /// Why the model stopped, as the provider said it, normalised.
    public var finishReason: FinishReason?
    /// The provider's own count of the tokens read and written, when it reports one.
    public var usage: TokenUsage?

    /// Creates a reply.
    public init(text: String, finishReason: FinishReason? = nil, usage: TokenUsage? = nil) {
        self.text = text
        self.finishReason = finishReason
        self.usage = usage
    }

    /// The text to extract candidates from: when the model was cut off at its token limit, its last line is cut
    /// too, and is left out rather than judged as a too-short question.
    public var completeText: String {
        guard finishReason == .length, let lastBreak = text.lastIndex(where: \.isNewline) else { return text }
        return String(text[..<lastBreak])
    }
}

/// Why a model stopped writing.
public enum FinishReason: Sendable, Equatable, CustomStringConvertible {
    /// It finished (`stop`, `end_turn`, `stop_sequence`).
    case stop
    /// It hit its token limit (`length`, `max_tokens`).
    case length
    /// A provider's filter stopped it (`content_filter`, `refusal`).
    case filtered
    /// Anything else, as the provider spelled it.
    case other(String)

    /// The normalised reason for a provider's own word.
    public init(_ raw: String) {
        switch raw {
        case "stop", "end_turn", "stop_sequence", "eos": self = .stop
        case "length", "max_tokens", "model_length": self = .length
        case "content_filter", "refusal", "safety": self = .filtered
        default: self = .other(raw)
        }
    }

    public var description: String {
        switch self {
        case .stop: "stop"
        case .length: "length"
        case .filtered: "filtered"
        case .other(let raw): raw
        }
    }
}

/// Tokens one call read and wrote, as the provider counted them.
public struct TokenUsage: Sendable, Equatable {
    /// Tokens of the prompt: the rendered template and, on a re-ask, the conversation so far.
    public var prompt: Int
    /// Tokens the model wrote.
    public var completion: Int

    /// Creates a count.
    public init(prompt: Int, completion: Int) {
        self.prompt = prompt
        self.completion = completion
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
