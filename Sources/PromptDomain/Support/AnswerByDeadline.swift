extension DeadlineWatch {
    /// The result of `work`, or ``DeadlinePassed`` at `deadline`, or ``ClientDeparted`` when `departure` fires,
    /// whichever comes first.
    ///
    /// Every wait inside a request has its own deadline, but some cannot be cut short from Swift: a write queued
    /// behind SQLite's single writer (the write batcher does not stop a batch it has begun), a PostgreSQL pool opening
    /// a connection to a server that is gone. This is the backstop that keeps the promise to the client anyway. `work`
    /// runs in its own task; at the deadline (as this watch sees it, within its tick) the caller is answered and `work`
    /// is cancelled (a model call's transfer is removed, a PostgreSQL query is cancelled; a SQLite batch is written
    /// whole), then left to wind down on its own. A client that leaves is treated the same way, at once: the model call
    /// it was waiting for is not paid for nobody. Cancelling the caller cancels `work`.
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

/// The request's deadline passed before its work finished.
package struct DeadlinePassed: Error, CustomStringConvertible {
    package var description: String { "the request's deadline passed before its work finished" }
}
