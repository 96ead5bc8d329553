import Hummingbird
import PromptDomain
import PromptGeneration

/// The answer to `POST /v1/prompts` and `POST /v1/sessions/{id}/refresh`.
public struct PromptsResponse: ResponseEncodable, Decodable, Sendable {
    /// The session's opaque id.
    public var sessionID: String
    /// Three prompts.
    public var prompts: [Prompt]
    /// `model`, `cache` or `fallback`.
    public var source: PromptSource
    /// Why the answer fell back; `null` otherwise.
    public var fallbackReason: FallbackReason?
    /// The app's copy for a fallback; `null` otherwise.
    public var message: String?
    /// The language of the product's copy in this answer (its fallback prompts and `message`), e.g. `ja` for a
    /// `ja-JP` user; `en` when no shipped language matches the locale.
    public var copyLocale: String
    /// Refreshes counted so far.
    public var refreshesUsed: Int
    /// Refreshes left.
    public var refreshesRemaining: Int
    /// The template that rendered the request.
    public var template: TemplateIdentity
    /// The backend and model that wrote the model prompts; `null` for a fallback answer.
    public var backend: BackendIdentity?

    /// Shapes a session answer for the wire.
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

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id"
        case prompts, source, message, template, backend
        case copyLocale = "copy_locale"
        case fallbackReason = "fallback_reason"
        case refreshesUsed = "refreshes_used"
        case refreshesRemaining = "refreshes_remaining"
    }

    /// Encodes every key, writing `null` rather than omitting absent values: the app reads a fixed shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encode(prompts, forKey: .prompts)
        try container.encode(source, forKey: .source)
        try container.encode(fallbackReason, forKey: .fallbackReason)
        try container.encode(message, forKey: .message)
        try container.encode(copyLocale, forKey: .copyLocale)
        try container.encode(refreshesUsed, forKey: .refreshesUsed)
        try container.encode(refreshesRemaining, forKey: .refreshesRemaining)
        try container.encode(template, forKey: .template)
        try container.encode(backend, forKey: .backend)
    }
}
