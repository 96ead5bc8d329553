import Foundation
import GRDB
import PromptDomain

/// Readiness, expiry and shutdown (``StoreMaintenance``), in SQLite.
extension SQLitePromptStore {
    public func close() async throws {
        guard ownsWriter else { return }
        // Copies every committed page into the main file and empties the WAL, so the file alone is the database.
        try await writer.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
        }
        try writer.close()
    }

    public func ping() async throws {
        try fileGuard?.check()
        _ = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session WHERE rowid = 0") }
    }

    public func pruneExpiredBatch(now: Date, limit: Int) async throws -> PruneCount {
        try await writer.write { db in
            let arguments: StatementArguments = [now.timeIntervalSince1970, limit]
            try db.execute(
                sql: """
                    DELETE FROM idempotentResponse WHERE (client, key) IN
                        (SELECT client, key FROM idempotentResponse WHERE expiresAt <= ? LIMIT ?)
                    """,
                arguments: arguments
            )
            let answers = db.changesCount
            try db.execute(sql: "DELETE FROM session WHERE id IN (SELECT id FROM session WHERE expiresAt <= ? LIMIT ?)", arguments: arguments)
            let sessions = db.changesCount
            try db.execute(
                sql: "DELETE FROM promptHistory WHERE rowid IN (SELECT rowid FROM promptHistory WHERE expiresAt <= ? LIMIT ?)",
                arguments: arguments
            )
            let history = db.changesCount
            try db.execute(sql: "DELETE FROM cacheEntry WHERE key IN (SELECT key FROM cacheEntry WHERE expiresAt <= ? LIMIT ?)", arguments: arguments)
            return PruneCount(sessions: sessions, cacheEntries: db.changesCount, idempotentAnswers: answers, historyEntries: history)
        }
    }
}
