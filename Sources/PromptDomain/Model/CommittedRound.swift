/// A refresh's round as the store kept it, and the session's count after it.
public struct CommittedRound: Sendable {
    /// The round, with its number, count and time as stored.
    public var round: SessionRound
    /// Refreshes counted so far, including this one if it counted.
    public var refreshesUsed: Int

    package init(round: SessionRound, refreshesUsed: Int) {
        self.round = round
        self.refreshesUsed = refreshesUsed
    }
}
