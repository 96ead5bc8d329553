import GRDB
import Synchronization

/// Group commit: independent writes that arrive while a transaction is running are written together in the next.
///
/// Under load, one SQLite commit then carries many sessions instead of one, so the shared pages and the commit
/// itself are paid once per batch. Each write still runs in its own savepoint, so one failure fails only its caller,
/// and each caller resumes only after the transaction holding its write has committed. Every write goes through
/// GRDB's asynchronous write, so no thread of Swift's pool ever waits on SQLite (a lock held by another process
/// included), and a cancelled caller's batch is interrupted rather than waited for.
package final class WriteBatcher: Sendable {
    private typealias Write = @Sendable (Database) throws -> Void

    private struct State {
        var pending: [(write: Write, done: CheckedContinuation<Void, any Error>)] = []
        /// Whether the flushing task is writing; a new write then queues for its next batch.
        var isWriting = false
    }

    private let writer: any DatabaseWriter
    private let state = Mutex(State())

    package init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Runs `write` in the next batch; returns once it is committed.
    package func write(_ write: @escaping @Sendable (Database) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let startsFlushing = state.withLock { state in
                state.pending.append((write, continuation))
                guard !state.isWriting else { return false }
                state.isWriting = true
                return true
            }
            if startsFlushing { Task { await flush() } }
        }
    }

    private func flush() async {
        while true {
            let batch = state.withLock { state in
                let batch = state.pending
                state.pending = []
                if batch.isEmpty { state.isWriting = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            let writes = batch.map(\.write)
            let outcomes: [Result<Void, any Error>]
            do {
                outcomes = try await writer.write { db in
                    writes.map { write in
                        Result {
                            try db.inSavepoint {
                                try write(db)
                                return .commit
                            }
                        }
                    }
                }
            } catch {
                outcomes = Array(repeating: .failure(error), count: batch.count)
            }
            for (entry, outcome) in zip(batch, outcomes) {
                entry.done.resume(with: outcome)
            }
        }
    }
}
