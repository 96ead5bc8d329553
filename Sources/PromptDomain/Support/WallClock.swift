import Foundation

/// The current date, injected so expiry rules are testable without sleeping.
public protocol WallClock: Sendable {
    var now: Date { get }
}
