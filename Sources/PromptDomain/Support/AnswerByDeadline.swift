extension DeadlineWatch {
    /// The result of `work`, or ``DeadlinePassed`` at `deadline`, or ``ClientDeparted`` when `departure` fires,
    /// whichever comes first.
    ///
    /// The backstop for waits Swift cannot cut short (a write queued behind SQLite's single writer, a PostgreSQL pool
    /// connecting to a server that is gone). `work` runs in its own task; at the deadline (within the watch's tick) the
    /// caller is answered and `work` cancelled (a model transfer removed, a PostgreSQL query cancelled, a SQLite batch
    /// written whole), then left to wind down. A departing client is treated the same, at once, so no model call is
    /// paid for nobody. Cancelling the caller cancels `work`.
    package func answer<Value: Sendable>(
        by deadline: ContinuousClock.Instant,
        departure: ClientDeparture? = nil,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = Race<Value>()
        let worker = Task {
            do {
                race.finish(with: .success(try await work()))
            } catch {
                race.finish(with: .failure(error))
            }
        }
        let ticket = watch(until: deadline) {
            if race.finish(with: .failure(DeadlinePassed())) { worker.cancel() }
        }
        let registration = departure?.whenGone {
            if race.finish(with: .failure(ClientDeparted())) { worker.cancel() }
        }
        defer {
            forget(ticket)
            departure?.forget(registration)
        }
        return try await withTaskCancellationHandler {
            try await race.value
        } onCancel: {
            worker.cancel()
        }
    }
}

package struct DeadlinePassed: Error, CustomStringConvertible {
    package var description: String { "the request's deadline passed before its work finished" }
}
