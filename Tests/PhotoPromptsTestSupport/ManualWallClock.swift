import Foundation
import PromptDomain
import Synchronization

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
