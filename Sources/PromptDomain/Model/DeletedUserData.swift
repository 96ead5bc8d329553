/// What "Delete Account" removed.
public struct DeletedUserData: Sendable, Equatable {
    /// Sessions, with their rounds and prompts.
    public var sessions: Int
    public var feedback: Int
    /// Answers kept for idempotent retries.
    public var idempotencyRecords: Int
    /// Entries of their prompt history: one per answer shown.
    public var historyEntries: Int

    package init(sessions: Int, feedback: Int, idempotencyRecords: Int, historyEntries: Int = 0) {
        self.sessions = sessions
        self.feedback = feedback
        self.idempotencyRecords = idempotencyRecords
        self.historyEntries = historyEntries
    }
}
