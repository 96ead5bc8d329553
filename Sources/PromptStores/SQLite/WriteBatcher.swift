import GRDB
import PromptDomain
import Synchronization

/// Group commit: writes arriving while a transaction runs go together in the next, so under load one commit carries
/// many sessions. Each write has its own savepoint, so a failure fails only its caller, who resumes only once its
/// transaction commits. GRDB's asynchronous write keeps Swift's pool from ever waiting on SQLite (or another process's
/// lock). A begun batch is written whole even when the service group stops, since its callers wait for it.
package final class WriteBatcher: Sendable {
    /// The loop that writes the batches; the app's service group serves it.
    package let loop: WorkLoop
    private let queue: PendingWrites

    package init(writer: any DatabaseWriter) {
        let queue = PendingWrites()
        self.queue = queue
        self.loop = WorkLoop(hasWork: { !queue.isEmpty }, pass: { await queue.writeAll(to: writer) })
    }

    /// Runs `write` in the next batch; returns once it is committed.
    package func write(_ write: @escaping @Sendable (Database) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { continuation in
            queue.append(write, done: continuation)
            loop.wake()
        }
    }
}

/// The writes waiting for the next batch, under a lock.
private final class PendingWrites: Sendable {
    typealias Write = @Sendable (Database) throws -> Void

    private let pending = Mutex<[(write: Write, done: CheckedContinuation<Void, any Error>)]>([])

    var isEmpty: Bool { pending.withLock { $0.isEmpty } }

    func append(_ write: @escaping Write, done: CheckedContinuation<Void, any Error>) {
        pending.withLock { $0.append((write, done)) }
    }

    /// Writes batch after batch until none is waiting.
    func writeAll(to writer: any DatabaseWriter) async {
        while true {
            let batch = pending.withLock { pending in
                defer { pending = [] }
                return pending
            }
            guard !batch.isEmpty else { return }
            let writes = batch.map(\.write)
            let outcomes = await Self.commit(writes, to: writer)
            for (entry, outcome) in zip(batch, outcomes) {
                entry.done.resume(with: outcome)
            }
        }
    }

    /// One transaction holding every write, each in its own savepoint. GRDB's callback form, since the `async` one
    /// would interrupt the batch when the serving task is cancelled, failing writes whose callers are still waiting.
    private static func commit(_ writes: [Write], to writer: any DatabaseWriter) async -> [Result<Void, any Error>] {
        await withCheckedContinuation { committed in
            writer.asyncWrite { db in
                writes.map { write in
                    Result {
                        try db.inSavepoint {
                            try write(db)
                            return .commit
                        }
                    }
                }
            } completion: { _, result in
                switch result {
                case .success(let outcomes): committed.resume(returning: outcomes)
                case .failure(let error): committed.resume(returning: Array(repeating: .failure(error), count: writes.count))
                }
            }
        }
    }
}
