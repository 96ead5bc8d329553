import Hummingbird
import PromptDomain
import PromptGeneration

/// The answer to `POST /v1/prompts` and `POST /v1/sessions/{id}/refresh`, written on every path (JSON, the stream's
/// last event, the replay, the stored copy) by one encoder, ``jsonBytes``; clients and tests read it with `Decodable`.
public struct PromptsResponse: Decodable, Sendable, Equatable {
    public var sessionID: String
    /// Three prompts.
    public var prompts: [Prompt]
    /// `model`, `cache` or `fallback`.
    public var source: PromptSource
    /// Why the answer fell back; `null` otherwise.
    public var fallbackReason: FallbackReason?
    /// The app's copy for a fallback; `null` otherwise.
    public var message: String?
    /// The language of this answer's copy (fallback prompts, `message`), e.g. `ja` for `ja-JP`; `en` when none matches.
    public var copyLocale: String
    public var refreshesUsed: Int
    public var refreshesRemaining: Int
    public var template: TemplateIdentity
    /// The backend and model that wrote the model prompts; `null` for a fallback answer.
    public var backend: BackendIdentity?

    public init(_ answer: SessionAnswer, refreshLimit: Int) {
        sessionID = answer.sessionID
        prompts = answer.round.prompts
        source = answer.round.source
        fallbackReason = answer.round.fallbackReason
        message = answer.round.fallbackReason.map(answer.copy.message(for:))
        copyLocale = answer.copy.locale.description
        refreshesUsed = answer.refreshesUsed
        refreshesRemaining = max(0, refreshLimit - answer.refreshesUsed)
        template = answer.template
        backend = answer.round.answeredBy
    }
}
