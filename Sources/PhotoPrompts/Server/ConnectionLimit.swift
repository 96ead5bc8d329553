import Synchronization

/// The open connections against `HTTP_MAX_CONNECTIONS`, shared by every ``ConnectionLimitHandler``: each counts
/// itself in when it opens and out when it closes, so the count is exact without a lock.
final class ConnectionLimit: Sendable {
    let maximum: Int
    private let open = Atomic<Int>(0)

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Counts a new connection in; `false` when it is one too many.
    func admit() -> Bool {
        open.add(1, ordering: .relaxed).newValue <= maximum
    }

    func release() {
        open.subtract(1, ordering: .relaxed)
    }
}
