import PromptDomain

/// Sees a model's text while the model still writes it: ``LLMRequest/observer``.
public protocol ReplyObserver: Sendable {
    /// A new call to `backend` begins (the first, a failover, or a re-ask): text from here on is a new reply, by it.
    func callStarted(by backend: BackendIdentity)
    /// More of the current reply's text, in order, with its tokens' log-probabilities where the provider sends them.
    func received(_ text: String, logprobs: TokenLogprobs?)
}
