/// The result of `work`, or ``DeadlinePassed`` once `deadline` comes (as ``DeadlineWatch`` sees it, within its tick).
///
/// Structured: `work` is a child task, cancelled at the deadline, and this returns only once it has ended, so `work`
/// must end when cancelled (as a libcurl transfer, a body read and a sleep do); a wait that cannot be cut short goes
/// through `answer(by:)`. The deadline costs a table entry and a parked child task, not a timer.
extension DeadlineWatch {
    package func withDeadline<Value: Sendable>(
        _ deadline: ContinuousClock.Instant,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: FirstToEnd<Value>.self) { group in
            group.addTask { .work(try await work()) }
            group.addTask {
                try await self.sleep(until: deadline)
                return .deadline
            }
            defer { group.cancelAll() }
            guard case .work(let value) = try await group.next() else { throw DeadlinePassed() }
            return value
        }
    }
}

private enum FirstToEnd<Value: Sendable>: Sendable {
    case work(Value)
    case deadline
}

extension DeadlineWatch {
    /// Returns once `deadline` has come, or throws `CancellationError` as soon as the task is cancelled: the same
    /// once-set ``Race`` as `answer(by:)`, finished by the deadline or by the cancellation, whichever is first.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        let race = Race<Void>()
        let ticket = watch(until: deadline) { race.finish(with: .success(())) }
        defer { forget(ticket) }
        try await withTaskCancellationHandler {
            try await race.value
        } onCancel: {
            race.finish(with: .failure(CancellationError()))
        }
    }
}
