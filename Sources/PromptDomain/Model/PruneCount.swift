/// What a prune removed.
public struct PruneCount: Sendable, Equatable {
    /// Sessions removed, with their rounds and prompts.
    public var sessions: Int
    public var cacheEntries: Int
    public var idempotentAnswers: Int
    /// Prompt history entries (one per answer shown) past their window.
    public var historyEntries: Int

    public init(sessions: Int, cacheEntries: Int, idempotentAnswers: Int = 0, historyEntries: Int = 0) {
        self.idempotentAnswers = idempotentAnswers
        self.historyEntries = historyEntries
        self.sessions = sessions
        self.cacheEntries = cacheEntries
    }

    /// Adds another batch's counts.
    package mutating func add(_ other: PruneCount) {
        sessions += other.sessions
        cacheEntries += other.cacheEntries
        idempotentAnswers += other.idempotentAnswers
        historyEntries += other.historyEntries
    }
}
