import Foundation

/// The answer to a refresh reservation.
public enum RefreshReservation: Sendable, Equatable {
    /// A slot is held; `ordinal` is which refresh this is (1 for the first).
    case reserved(ordinal: Int)
    /// Every refresh is delivered: `refreshesUsed` is the limit.
    case limitReached(refreshesUsed: Int)
    /// Refreshes still running hold the remaining slots: only `refreshesUsed` are delivered, and the last of the
    /// pending ones is due within `retryAfter` seconds (its lease; sooner when it ends).
    case pending(refreshesUsed: Int, retryAfter: TimeInterval)
    /// No such session, or it expired.
    case notFound
}

extension RefreshReservation {
    /// Why a session with `used` refreshes delivered had no slot: the limit when all are delivered, else refreshes
    /// still running (a double tap, a retry after a dropped connection, or a holder that died), due at
    /// `pendingUntil`. Both stores refuse through this one rule.
    package static func refused(used: Int, limit: Int, pendingUntil: Double?, now: Date) -> RefreshReservation {
        guard used < limit else { return .limitReached(refreshesUsed: used) }
        return .pending(refreshesUsed: used, retryAfter: max(0, (pendingUntil ?? 0) - now.timeIntervalSince1970))
    }
}
