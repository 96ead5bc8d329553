import Foundation
import GRDB
import PromptDomain

/// Each user's prompt history (``PromptHistoryStore``), in SQLite.
extension SQLitePromptStore {
    public func promptHistory(client: String, userID: String, now: Date, limit: Int) async throws -> SeenHistory {
        try await writer.read { db in
            try Self.history(client: client, userID: userID, now: now, limit: limit, db: db)
        }
    }

    public func promptHistory(client: String, userID: String?, now: Date, limit: Int, cacheKey: String) async throws -> (SeenHistory, CacheEntry?) {
        try await writer.read { db in
            let history = try userID.map { try Self.history(client: client, userID: $0, now: now, limit: limit, db: db) } ?? []
            return (history, try Self.cacheEntry(forKey: cacheKey, now: now, db: db))
        }
    }

    /// The prompts of the user's newest `limit` answers (all, for nil) still in the window at `now` (every one kept,
    /// for nil), newest first.
    package static func history(client: String, userID: String, now: Date?, limit: Int?, db: Database) throws -> SeenHistory {
        // A cursor, and the column's bytes read where SQLite holds them: no copy of a row or its blob.
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT prompts, shownAt FROM promptHistory
                    WHERE ownerKey = ? AND userID = ? AND expiresAt > ? ORDER BY shownAt DESC LIMIT ?
                    """
            ),
            arguments: [client, userID, now?.timeIntervalSince1970 ?? -Double.infinity, limit ?? -1]
        )
        var history = SeenHistory()
        while let row = try rows.next() {
            let shownAt = Date(timeIntervalSince1970: row[1])
            try row.withUnsafeData(atIndex: 0) { data in data?.withUnsafeBytes { history.append(packed: $0, shownAt: shownAt) } }
        }
        return history
    }
}
