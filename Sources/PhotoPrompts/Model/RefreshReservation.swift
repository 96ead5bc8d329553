import Foundation

/// The answer to a refresh reservation.
public enum RefreshReservation: Sendable, Equatable {
    /// A slot is held; `ordinal` is which refresh this is (1 for the first).
    case reserved(ordinal: Int)
    /// Every slot is used or in flight.
    case limitReached(refreshesUsed: Int)
    /// No such session, or it expired.
    case notFound
}
