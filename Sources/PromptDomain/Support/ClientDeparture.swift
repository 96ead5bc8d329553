import Synchronization

/// Fires once when the client that sent a request is gone, so the work done for it can stop.
///
/// The server makes one per connection (which carries one request at a time) and calls ``depart()`` when its input
/// closes or it goes inactive; ``answer(by:departure:_:)`` then answers at once and cancels the request's work.
public final class ClientDeparture: Sendable {
    /// What ``whenGone(_:)`` hands back, to take the action off again.
    package struct Registration: Sendable {
        fileprivate let number: UInt64
    }

    private struct State {
        var isGone = false
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var lastNumber: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// The client has gone: every pending action runs now, once.
    package func depart() {
        let actions = state.withLock { state in
            guard !state.isGone else { return [@Sendable () -> Void]() }
            state.isGone = true
            defer { state.actions = [:] }
            return Array(state.actions.values)
        }
        for action in actions { action() }
    }

    /// Runs `action` when the client goes, or now if it has gone; `nil` then, since there is nothing to take off.
    package func whenGone(_ action: @escaping @Sendable () -> Void) -> Registration? {
        let number: UInt64? = state.withLock { state in
            guard !state.isGone else { return nil }
            state.lastNumber += 1
            state.actions[state.lastNumber] = action
            return state.lastNumber
        }
        guard let number else {
            action()
            return nil
        }
        return Registration(number: number)
    }

    /// Takes an action off; it does not run unless it already has.
    package func forget(_ registration: Registration?) {
        guard let registration else { return }
        _ = state.withLock { $0.actions.removeValue(forKey: registration.number) }
    }
}

package struct ClientDeparted: Error, CustomStringConvertible {
    package init() {}
    package var description: String { "the client went before its request was answered" }
}
