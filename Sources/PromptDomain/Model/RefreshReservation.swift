import Foundation

/// The answer to a refresh reservation.
public enum RefreshReservation: Sendable, Equatable {
    /// A slot is held; `ordinal` is which refresh this is (1 for the first). `start` when the session's refresh turn
    /// was taken with the slot: the session and its user's history, read in the same transaction.
    case reserved(ordinal: Int, start: RefreshStart? = nil)
    /// Every refresh is delivered: `refreshesUsed` is the limit.
    case limitReached(refreshesUsed: Int)
    /// Refreshes still running hold the remaining slots: only `refreshesUsed` are delivered, and the last of the
    /// pending ones is due within `retryAfter` seconds (its lease; sooner when it ends).
    case pending(refreshesUsed: Int, retryAfter: TimeInterval)
    /// No such session, or it expired.
    case notFound
}

extension RefreshReservation {
    /// Why a session with `used` refreshes delivered had no slot: the limit, else refreshes still running (a double
    /// tap, a retry, a dead holder) due at `pendingUntil`. Both stores refuse through this one rule.
    package static func refused(used: Int, limit: Int, pendingUntil: Double?, now: Date) -> RefreshReservation {
        guard used < limit else { return .limitReached(refreshesUsed: used) }
        return .pending(refreshesUsed: used, retryAfter: max(0, (pendingUntil ?? 0) - now.timeIntervalSince1970))
    }
}

/// What a refresh reads before it chooses its round, read with its reservation once it holds the session's turn.
public struct RefreshStart: Sendable, Equatable {
    /// The session with every round shown so far.
    public var session: SessionSnapshot
    /// The prompts of the newest answers its user was shown inside the history window, newest first; empty without
    /// a user or a history.
    public var history: SeenHistory

    package init(session: SessionSnapshot, history: SeenHistory) {
        self.session = session
        self.history = history
    }
}
