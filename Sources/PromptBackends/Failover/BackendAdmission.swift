import Synchronization

/// A cap on backend work in flight (`BACKEND_MAX_IN_FLIGHT`). Past it a request is not queued (it would only wait past
/// its deadline and fall back anyway): it falls back at once, as `unavailable`, and the backends keep their requests.
package final class BackendAdmission: Sendable {
    package let limit: Int
    private let current = Mutex(0)

    package init(limit: Int) { self.limit = limit }

    /// Takes a slot if one is free.
    package func enter() -> Bool {
        current.withLock { current in
            guard current < limit else { return false }
            current += 1
            return true
        }
    }

    package func leave() { current.withLock { $0 -= 1 } }

    package var inFlight: Int { current.withLock { $0 } }
}
