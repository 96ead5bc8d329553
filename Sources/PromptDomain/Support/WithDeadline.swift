import Synchronization

/// The result of `work`, or ``DeadlinePassed`` once `deadline` comes (as ``DeadlineWatch`` sees it, within its tick).
///
/// Structured: `work` runs as a child task of a task group, cancelled at the deadline, and this returns only once it
/// has ended. So `work` must end when cancelled, as a libcurl transfer, a body read and a sleep do. A wait that
/// cannot be cut short (a write queued behind SQLite's writer) goes through `answer(by:)`, the one backstop, which
/// answers at the deadline and leaves the work to wind down. The deadline costs an entry in the watch's table and a
/// parked child task, not a timer.
package func withDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant,
    _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: FirstToEnd<Value>.self) { group in
        group.addTask { .work(try await work()) }
        group.addTask {
            try await DeadlineWatch.shared.sleep(until: deadline)
            return .deadline
        }
        defer { group.cancelAll() }
        guard case .work(let value) = try await group.next() else { throw DeadlinePassed() }
        return value
    }
}

private enum FirstToEnd<Value: Sendable>: Sendable {
    case work(Value)
    case deadline
}

extension DeadlineWatch {
    /// Returns once `deadline` has come, or throws `CancellationError` as soon as the task is cancelled.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (woken: CheckedContinuation<Void, any Error>) in
                guard sleeper.park(woken) else { return }
                let ticket = watch(until: deadline) { sleeper.wake(with: .success(())) }
                if !sleeper.keep(ticket) { forget(ticket) }
            }
        } onCancel: {
            if let ticket = sleeper.wake(with: .failure(CancellationError())) { forget(ticket) }
        }
    }
}

/// One parked sleeper, woken once: by its deadline or by its cancellation, whichever comes first.
private final class Sleeper: Sendable {
    private struct State {
        var parked: CheckedContinuation<Void, any Error>?
        var ticket: DeadlineWatch.Ticket?
        var isWoken = false
    }

    private let state = Mutex(State())

    /// Parks `woken`, or resumes it at once (returning false) when the sleeper was cancelled first.
    func park(_ woken: CheckedContinuation<Void, any Error>) -> Bool {
        let parks = state.withLock { state in
            guard !state.isWoken else { return false }
            state.parked = woken
            return true
        }
        if !parks { woken.resume(throwing: CancellationError()) }
        return parks
    }

    /// Keeps the deadline's ticket, for a cancellation to take off the table; false when already woken.
    func keep(_ ticket: DeadlineWatch.Ticket) -> Bool {
        state.withLock { state in
            guard !state.isWoken else { return false }
            state.ticket = ticket
            return true
        }
    }

    /// Resumes the sleeper unless it was woken already; returns the ticket still on the table, if any.
    @discardableResult
    func wake(with result: Result<Void, any Error>) -> DeadlineWatch.Ticket? {
        let (parked, ticket) = state.withLock { state in
            guard !state.isWoken else { return (CheckedContinuation<Void, any Error>?.none, DeadlineWatch.Ticket?.none) }
            state.isWoken = true
            defer {
                state.parked = nil
                state.ticket = nil
            }
            return (state.parked, state.ticket)
        }
        parked?.resume(with: result)
        return ticket
    }
}
