import Foundation

/// One answer shown in a session: the one round type, from the round assembler's choice through the store to the
/// session read back. Until the store keeps it (setting what only it knows), a round is number 0, uncounted, dated
/// when it was chosen.
public struct SessionRound: Sendable, Equatable {
    /// 0 for the first answer, then 1, 2, … for each refresh attempt that showed prompts.
    public var round: Int
    /// Where the answer as a whole came from.
    public var source: PromptSource
    /// Why it fell back, if it did; for a streamed reply cut after some prompts were shown, why the fallbacks fill
    /// the rest.
    public var fallbackReason: FallbackReason?
    /// Whether it counted against the refresh limit.
    public var counted: Bool
    /// The prompts shown, normally three.
    public var prompts: [Prompt]
    /// Valid prompts the model wrote beyond these three, kept on the session to serve the next refresh without a
    /// backend call; empty in a round read back (the session holds them).
    public var surplus: [ValidPrompt]
    /// When it was chosen, then when it was kept.
    public var createdAt: Date
    /// The backend that wrote its model prompts, if any.
    public var answeredBy: BackendIdentity?
    /// The version of the session's variant that rendered it; `nil` in rows written before v3.
    public var templateVersion: String?

    public init(
        round: Int = 0,
        source: PromptSource,
        fallbackReason: FallbackReason? = nil,
        counted: Bool = false,
        prompts: [Prompt],
        surplus: [ValidPrompt] = [],
        createdAt: Date,
        answeredBy: BackendIdentity? = nil,
        templateVersion: String? = nil
    ) {
        self.round = round
        self.source = source
        self.fallbackReason = fallbackReason
        self.counted = counted
        self.prompts = prompts
        self.surplus = surplus
        self.createdAt = createdAt
        self.answeredBy = answeredBy
        self.templateVersion = templateVersion
    }
}
