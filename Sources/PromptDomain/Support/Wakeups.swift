import Synchronization

/// Wakes this process's waits on a key as soon as what they wait for ends here.
///
/// A retry waiting for an `Idempotency-Key`'s answer and a refresh waiting for its session's turn each ask the store
/// again and again, because the request they wait for may run on another instance. Polling with a write every few
/// milliseconds loads the store and the cores exactly when the request they wait for needs both; with a wake from
/// the request that ends here, they ask seldom and still answer at once. A wake that comes between a wait's ask and
/// its pause is missed, and costs that wait one interval.
package final class Wakeups: Sendable {
    private let waiting = Mutex<[String: [Int: CheckedContinuation<Void, Never>]]>([:])
    private let lastTicket = Atomic(0)

    package init() {}

    /// Sleeps `interval`, or until `key` is woken, or until `deadline`, whichever comes first; returns `false`,
    /// without sleeping, once `deadline` has passed.
    package func pause(_ interval: Duration, on key: String, before deadline: ContinuousClock.Instant) async throws -> Bool {
        let now = ContinuousClock.now
        guard now < deadline else { return false }
        let ticket = lastTicket.add(1, ordering: .relaxed).newValue
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Task.sleep(until: min(now + interval, deadline)) }
            group.addTask { await self.woken(key, ticket) }
            defer { group.cancelAll() }
            try await group.next()
        }
        return true
    }

    /// Ends every pause on `key`.
    package func wake(_ key: String) {
        let woken = waiting.withLock { $0.removeValue(forKey: key) } ?? [:]
        for continuation in woken.values { continuation.resume() }
    }

    private func woken(_ key: String, _ ticket: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock the cancellation handler takes: either it finds this wait, or this sees it ran.
                let cancelled = waiting.withLock { waiting in
                    if Task.isCancelled { return true }
                    waiting[key, default: [:]][ticket] = continuation
                    return false
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            let continuation = waiting.withLock { waiting in
                defer { if waiting[key]?.isEmpty == true { waiting[key] = nil } }
                return waiting[key]?.removeValue(forKey: ticket)
            }
            continuation?.resume()
        }
    }
}
