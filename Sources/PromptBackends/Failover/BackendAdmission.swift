import Synchronization

/// A cap on backend work in flight (`BACKEND_MAX_IN_FLIGHT`).
///
/// Past the cap a request is not queued: it would only wait past its deadline and then fall back anyway. It falls
/// back at once, as `unavailable`, and the backends keep serving the requests they already have.
package final class BackendAdmission: Sendable {
    package let limit: Int
    private let current = Mutex(0)

    package init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot if one is free.
    package func enter() -> Bool {
        current.withLock { current in
            guard current < limit else { return false }
            current += 1
            return true
        }
    }

    package func leave() {
        current.withLock { $0 -= 1 }
    }

    package var inFlight: Int { current.withLock { $0 } }
}
