import Foundation

/// The system's clock.
public struct SystemWallClock: WallClock {
    public init() {}

    public var now: Date { Date() }
}
