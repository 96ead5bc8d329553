import Synchronization

/// Lets identical work in flight at the same time run once, every caller receiving the one result.
///
/// "Identical" is decided by the key (the cache key): a double tap or a client's retry shares one backend call.
/// Each run has a `Shared` companion, made by the caller that starts it, through which the run tells what it has
/// done so far to callers that join it before it ends (the prompts a streamed reply has yielded).
/// A lock, not an actor: the bookkeeping is two dictionary operations, and an actor added executor hops to every
/// model call (into the actor, into the work's task, back through the actor).
package final class SingleFlight<Value: Sendable, Shared: Sendable>: Sendable {
    private struct Flight {
        package let task: Task<Value, Never>
        package let shared: Shared
    }

    private let inFlight = Mutex<[String: Flight]>([:])

    /// Creates one with nothing in flight.
    package init() {}

    /// Runs `operation` for `key` with a new companion from `makeShared`, or joins the run already in flight, whose
    /// companion `join` is handed before the result is awaited. `joined` tells which happened.
    ///
    /// The work runs in its own task, so one caller's cancellation does not fail the others.
    package func run(
        _ key: String,
        shared makeShared: () -> Shared,
        join: (Shared) -> Void,
        _ operation: @escaping @Sendable (Shared) async -> Value
    ) async -> (value: Value, joined: Bool) {
        let (flight, joined) = inFlight.withLock { inFlight in
            if let running = inFlight[key] { return (running, true) }
            let shared = makeShared()
            let flight = Flight(task: Task { await operation(shared) }, shared: shared)
            inFlight[key] = flight
            return (flight, false)
        }
        if joined { join(flight.shared) }
        let value = await flight.task.value
        // The caller that started the work ends it; awaiting a task's value cannot be cut short by cancellation.
        if !joined { inFlight.withLock { _ = $0.removeValue(forKey: key) } }
        return (value, joined)
    }
}
