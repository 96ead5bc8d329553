import Foundation

/// The system's clock.
public struct SystemWallClock: WallClock {
    /// Creates the clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }
}
