import PromptDomain
import PromptTemplates

/// One answer: the round shown and the session's count after it.
public struct SessionAnswer: Sendable {
    public var sessionID: String
    /// The three prompts and where they came from.
    public var round: SessionRound
    public var refreshesUsed: Int
    public var template: TemplateIdentity
    /// The product's copy in the user's language: the fallbacks used and the message for a fallback answer.
    public var copy: ProductCopy
    /// Where the time went, for `Server-Timing`.
    public var timing: ServerTiming

    package init(sessionID: String, round: SessionRound, refreshesUsed: Int, template: TemplateIdentity, copy: ProductCopy, timing: ServerTiming) {
        self.sessionID = sessionID
        self.round = round
        self.refreshesUsed = refreshesUsed
        self.template = template
        self.copy = copy
        self.timing = timing
    }
}
