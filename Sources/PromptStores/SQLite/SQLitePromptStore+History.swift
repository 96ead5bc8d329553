import Foundation
import GRDB
import PromptDomain

/// Each user's prompt history (``PromptHistoryStore``), in SQLite.
extension SQLitePromptStore {
    public func promptHistory(client: String, userID: String, now: Date, limit: Int) async throws -> [SeenPrompt] {
        try await writer.read { db in
            try Self.history(client: client, userID: userID, now: now, limit: limit, db: db)
        }
    }

    public func promptHistory(client: String, userID: String?, now: Date, limit: Int, cacheKey: String) async throws -> ([SeenPrompt], CacheEntry?) {
        try await writer.read { db in
            let history = try userID.map { try Self.history(client: client, userID: $0, now: now, limit: limit, db: db) } ?? []
            return (history, try Self.cacheEntry(forKey: cacheKey, now: now, db: db))
        }
    }

    /// The prompts of the user's newest `limit` answers (all, for nil) still in the window at `now` (every one kept,
    /// for nil), newest first.
    package static func history(client: String, userID: String, now: Date?, limit: Int?, db: Database) throws -> [SeenPrompt] {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT prompts, shownAt FROM promptHistory
                    WHERE ownerKey = ? AND userID = ? AND expiresAt > ? ORDER BY shownAt DESC LIMIT ?
                    """
            ),
            arguments: [client, userID, now?.timeIntervalSince1970 ?? -Double.infinity, limit ?? -1]
        )
        return rows.flatMap { row in HistoryRows.seen(prompts: row["prompts"], shownAt: row["shownAt"]) }
    }
}
