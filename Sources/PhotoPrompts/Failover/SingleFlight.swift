import Synchronization

/// Lets identical work in flight at the same time run once, every caller receiving the one result.
///
/// "Identical" is decided by the key (the cache key): a double tap or a client's retry shares one backend call.
/// A lock, not an actor: the bookkeeping is two dictionary operations, and an actor added executor hops to every
/// model call (into the actor, into the work's task, back through the actor).
final class SingleFlight<Value: Sendable>: Sendable {
    private let inFlight = Mutex<[String: Task<Value, Never>]>([:])

    /// Runs `operation` for `key`, or joins the run already in flight. `joined` tells which happened.
    ///
    /// The work runs in its own task, so one caller's cancellation does not fail the others.
    func run(_ key: String, _ operation: @escaping @Sendable () async -> Value) async -> (value: Value, joined: Bool) {
        let (task, joined) = inFlight.withLock { inFlight in
            if let running = inFlight[key] { return (running, true) }
            let task = Task { await operation() }
            inFlight[key] = task
            return (task, false)
        }
        let value = await task.value
        // The caller that started the work ends it; awaiting a task's value cannot be cut short by cancellation.
        if !joined { inFlight.withLock { _ = $0.removeValue(forKey: key) } }
        return (value, joined)
    }
}
