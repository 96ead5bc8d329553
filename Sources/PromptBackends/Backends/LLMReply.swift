import PromptDomain

/// What a model answered: its text, why it stopped writing, and the tokens the provider says it cost.
public struct LLMReply: Sendable, Equatable {
    /// The assistant's text; empty when the model wrote none (a reasoning model that spent its budget thinking).
    public var text: String
    /// Why the model stopped, as the provider said it, normalised.
    public var finishReason: FinishReason?
    /// The provider's own count of the tokens read and written, when it reports one.
    public var usage: TokenUsage?
    /// The model's log-probability of each token of `text`, where the provider reports them (the fluency rule's).
    public var logprobs: TokenLogprobs?

    public init(text: String, finishReason: FinishReason? = nil, usage: TokenUsage? = nil, logprobs: TokenLogprobs? = nil) {
        self.text = text
        self.finishReason = finishReason
        self.usage = usage
        self.logprobs = logprobs
    }

    /// The text to extract candidates from: when the model was cut off at its token limit, its last line is cut
    /// too, and is left out rather than judged as a too-short question.
    public var completeText: String {
        guard finishReason == .length, let lastBreak = text.lastIndex(where: \.isNewline) else { return text }
        return String(text[..<lastBreak])
    }
}

/// An OpenAI-style choice's `logprobs`: `{"content": [{"token": "…", "logprob": -0.1, "bytes": […]}, …]}`, in a whole
/// reply and in each streamed chunk alike.
struct ChoiceLogprobs: Decodable {
    struct Token: Decodable {
        var token: String
        var logprob: Double
        var bytes: [UInt8]?
    }
    var content: [Token]?

    var scored: TokenLogprobs {
        (content ?? []).reduce(into: TokenLogprobs()) { $0.append($1.token, bytes: $1.bytes, logprob: $1.logprob) }
    }
}
