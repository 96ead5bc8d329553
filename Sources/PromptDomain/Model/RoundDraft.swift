import Foundation

/// A round of prompts before it is stored.
public struct RoundDraft: Sendable {
    /// Where the round as a whole came from.
    public var source: PromptSource
    /// Set when `source` is `fallback`.
    public var fallbackReason: FallbackReason?
    /// The prompts shown, normally three.
    public var prompts: [Prompt]
    /// Valid prompts the model wrote beyond these three, kept to serve the next refresh without a backend call.
    public var surplus: [ValidPrompt] = []

    /// The backend that wrote the model prompts shown, if any.
    public var answeredBy: BackendIdentity?

    /// The template version that rendered the request, set by the session service before the round is stored.
    public var template: TemplateIdentity?

    /// Creates a round to store.
    public init(
        source: PromptSource,
        fallbackReason: FallbackReason? = nil,
        prompts: [Prompt],
        surplus: [ValidPrompt] = [],
        answeredBy: BackendIdentity? = nil,
        template: TemplateIdentity? = nil
    ) {
        self.source = source
        self.fallbackReason = fallbackReason
        self.prompts = prompts
        self.surplus = surplus
        self.answeredBy = answeredBy
        self.template = template
    }
}
