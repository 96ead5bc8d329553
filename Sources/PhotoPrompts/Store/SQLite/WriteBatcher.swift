import GRDB

/// Group commit: independent writes that arrive while a transaction is running are written together in the next.
///
/// Under load, one SQLite commit then carries many sessions instead of one, so the shared pages and the commit
/// itself are paid once per batch. Each write still runs in its own savepoint, so one failure fails only its caller,
/// and each caller resumes only after the transaction holding its write has committed.
actor WriteBatcher {
    private typealias Write = @Sendable (Database) throws -> Void

    private let writer: any DatabaseWriter
    private var pending: [(write: Write, done: CheckedContinuation<Void, any Error>)] = []
    private var isFlushing = false

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Runs `write` in the next batch; returns once it is committed.
    func write(_ write: @escaping @Sendable (Database) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { continuation in
            pending.append((write, continuation))
            if !isFlushing {
                isFlushing = true
                Task { await flush() }
            }
        }
    }

    private func flush() async {
        while !pending.isEmpty {
            let batch = pending
            pending = []
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
        isFlushing = false
    }
}
