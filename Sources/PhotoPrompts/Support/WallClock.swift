import Foundation
import Synchronization

/// The current date, injected so expiry rules are testable without sleeping.
public protocol WallClock: Sendable {
    /// Now.
    var now: Date { get }
}

/// The system's clock.
public struct SystemWallClock: WallClock {
    /// Creates the clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }
}

/// A clock that moves only when told to: the test twin of ``SystemWallClock``.
public final class ManualWallClock: WallClock {
    private let current: Mutex<Date>

    /// Creates a clock showing `start`.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The time the clock shows.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 += interval }
    }
}
