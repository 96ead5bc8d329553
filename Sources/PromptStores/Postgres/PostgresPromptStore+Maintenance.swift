import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Readiness and expiry (``StoreMaintenance``), in PostgreSQL; ``close()`` is with the pool it ends.
extension PostgresPromptStore {
    public func ping() async throws {
        try await client.query("SELECT 1", logger: logger)
    }

    public func pruneExpiredBatch(now: Date, limit: Int) async throws -> PruneCount {
        let cutoff = now.timeIntervalSince1970
        return try await client.withTransaction(logger: logger) { connection in
            // One instance prunes at a time; the others skip this batch rather than queue up to delete nothing.
            let lock = try await connection.query("SELECT pg_try_advisory_xact_lock(\(AdvisoryLockKey.pruning))", logger: logger)
            guard try await lock.decode(Bool.self).contains(true) else { return PruneCount(sessions: 0, cacheEntries: 0) }
            let rows = try await connection.query(
                """
                WITH responses AS (DELETE FROM idempotentResponse WHERE (client, key) IN
                    (SELECT client, key FROM idempotentResponse WHERE expiresAt <= \(cutoff) LIMIT \(limit)) RETURNING 1),
                sessions AS (DELETE FROM session WHERE id IN
                    (SELECT id FROM session WHERE expiresAt <= \(cutoff) LIMIT \(limit)) RETURNING 1),
                entries AS (DELETE FROM cacheEntry WHERE key IN
                    (SELECT key FROM cacheEntry WHERE expiresAt <= \(cutoff) LIMIT \(limit)) RETURNING 1),
                history AS (DELETE FROM promptHistory WHERE ctid IN
                    (SELECT ctid FROM promptHistory WHERE expiresAt <= \(cutoff) LIMIT \(limit)) RETURNING 1)
                SELECT (SELECT COUNT(*) FROM sessions), (SELECT COUNT(*) FROM entries), (SELECT COUNT(*) FROM responses),
                    (SELECT COUNT(*) FROM history)
                """,
                logger: logger
            )
            let counts = try await rows.decodeFirst((Int, Int, Int, Int).self) ?? (0, 0, 0, 0)
            return PruneCount(sessions: counts.0, cacheEntries: counts.1, idempotentAnswers: counts.2, historyEntries: counts.3)
        }
    }
}
