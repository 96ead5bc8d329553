import Foundation

/// One answer shown in a session.
public struct SessionRound: Sendable {
    /// 0 for the first answer, then 1, 2, … for each refresh attempt that showed prompts.
    public var round: Int
    /// Where the answer came from.
    public var source: PromptSource
    /// Why it fell back, if it did.
    public var fallbackReason: FallbackReason?
    /// Whether it counted against the refresh limit.
    public var counted: Bool
    /// The prompts shown.
    public var prompts: [Prompt]
    /// When it was shown.
    public var createdAt: Date
    /// The backend that wrote its model prompts, if any.
    public var answeredBy: BackendIdentity?
    /// The version of the session's variant that rendered it, when known.
    public var templateVersion: String?

    /// Creates a value with every field.
    package init(
        round: Int,
        source: PromptSource,
        fallbackReason: FallbackReason? = nil,
        counted: Bool,
        prompts: [Prompt],
        createdAt: Date,
        answeredBy: BackendIdentity? = nil,
        templateVersion: String? = nil
    ) {
        self.round = round
        self.source = source
        self.fallbackReason = fallbackReason
        self.counted = counted
        self.prompts = prompts
        self.createdAt = createdAt
        self.answeredBy = answeredBy
        self.templateVersion = templateVersion
    }
}
