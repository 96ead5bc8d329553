import Foundation

/// A stored round and the session's count after it.
public struct CommittedRound: Sendable {
    /// What was stored.
    public var draft: RoundDraft
    /// Refreshes counted so far, including this one if it counted.
    public var refreshesUsed: Int

    /// Creates a value with every field.
    package init(draft: RoundDraft, refreshesUsed: Int) {
        self.draft = draft
        self.refreshesUsed = refreshesUsed
    }
}
