import Synchronization

/// Lets identical work in flight at the same time run once, every caller receiving the one result, and stops it
/// when no caller waits for it any more.
///
/// "Identical" is decided by the key (the cache key): a double tap or a client's retry shares one backend call.
/// Each run has a `Shared` companion, made by the caller that starts it, through which the run tells callers that
/// join before it ends what it has done so far (the prompts a streamed reply has yielded). A lock, not an actor: the
/// bookkeeping is two dictionary operations, and an actor added executor hops to every model call.
package final class SingleFlight<Value: Sendable, Shared: Sendable>: Sendable {
    private struct Flight {
        let number: UInt64
        let task: Task<Value, Never>
        let shared: Shared
        /// The callers still waiting for `task`: when the last is cancelled, so is the work.
        var waiting: Int
    }

    private struct State {
        var flights: [String: Flight] = [:]
        var lastNumber: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Runs `operation` for `key` with a new companion from `makeShared`, or joins the run already in flight, whose
    /// companion `join` is handed before the result is awaited; `joined` tells which. The work runs in its own task,
    /// so one caller's cancellation does not fail the others; when the last caller is cancelled (a client that left,
    /// or every caller's deadline passed), the work is cancelled too, and each caller gets what it returns.
    package func run(
        _ key: String,
        shared makeShared: () -> Shared,
        join: (Shared) -> Void,
        _ operation: @escaping @Sendable (Shared) async -> Value
    ) async -> (value: Value, joined: Bool) {
        let (flight, joined) = state.withLock { state in
            if var running = state.flights[key] {
                running.waiting += 1
                state.flights[key] = running
                return (running, true)
            }
            state.lastNumber += 1
            let shared = makeShared()
            let flight = Flight(number: state.lastNumber, task: Task { await operation(shared) }, shared: shared, waiting: 1)
            state.flights[key] = flight
            return (flight, false)
        }
        if joined { join(flight.shared) }
        let value = await withTaskCancellationHandler {
            await flight.task.value
        } onCancel: {
            stopWaiting(for: key, number: flight.number)
        }
        // The caller that started the work ends it, unless the last caller left first and a new run took the key.
        if !joined { state.withLock { if $0.flights[key]?.number == flight.number { $0.flights[key] = nil } } }
        return (value, joined)
    }

    /// One caller of run `number` is gone: the last one takes the run off the table and cancels it.
    private func stopWaiting(for key: String, number: UInt64) {
        let abandoned: Task<Value, Never>? = state.withLock { state in
            guard var flight = state.flights[key], flight.number == number else { return nil }
            flight.waiting -= 1
            guard flight.waiting == 0 else {
                state.flights[key] = flight
                return nil
            }
            state.flights[key] = nil
            return flight.task
        }
        abandoned?.cancel()
    }
}
