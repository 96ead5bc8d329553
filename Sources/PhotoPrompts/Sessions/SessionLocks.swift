/// Runs work for one session at a time, while different sessions run in parallel.
///
/// The store alone makes the refresh *count* exact. This makes the *content* right: each refresh of a session
/// waits for the previous one to commit, so it sees every prompt already shown and can ask the model to avoid them.
/// At most `SESSIONS_REFRESH_LIMIT` refreshes ever wait here, because the slot is reserved before the lock.
actor SessionLocks {
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var held: Set<String> = []

    /// Runs `body` once no other `withLock` for `key` is running.
    func withLock<Value: Sendable>(_ key: String, _ body: @Sendable () async throws -> Value) async throws -> Value {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: String) async {
        guard held.contains(key) else {
            held.insert(key)
            return
        }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    private func release(_ key: String) {
        guard var queue = waiting[key], !queue.isEmpty else {
            held.remove(key)
            return
        }
        // Hand the lock straight to the next waiter: `held` stays set for it.
        let next = queue.removeFirst()
        waiting[key] = queue.isEmpty ? nil : queue
        next.resume()
    }
}
