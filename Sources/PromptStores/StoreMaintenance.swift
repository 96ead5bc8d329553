import Foundation
import PromptDomain

/// Readiness, expiry and shutdown.
public protocol StoreMaintenance: Sendable {
    /// Succeeds when the database answers a query, for `/readyz`.
    func ping() async throws

    /// Deletes at most `limit` each of the sessions, cache entries, idempotent answers and prompt history entries that
    /// expired before `now`, in one short transaction, so request writes never wait long behind a sweep. A store shared
    /// by several instances lets one of them prune at a time; the others skip the batch and report nothing removed.
    func pruneExpiredBatch(now: Date, limit: Int) async throws -> PruneCount

    /// Writes what is pending and lets go of the database; called once at shutdown, after the last request.
    func close() async throws
}

extension StoreMaintenance {
    /// Deletes everything that expired before `now`, `batchSize` rows of each kind per transaction, pausing between
    /// batches so that request writes go first; returns the total.
    public func pruneExpired(now: Date, batchSize: Int = 200, pause: Duration = .zero) async throws -> PruneCount {
        var total = PruneCount(sessions: 0, cacheEntries: 0)
        while true {
            let batch = try await pruneExpiredBatch(now: now, limit: batchSize)
            total.add(batch)
            guard max(batch.sessions, batch.cacheEntries, batch.idempotentAnswers, batch.historyEntries) >= batchSize else { return total }
            try await Task.sleep(for: pause)
        }
    }
}
