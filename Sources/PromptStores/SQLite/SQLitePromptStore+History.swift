import Foundation
import GRDB

/// Each user's prompt history (``PromptHistoryStore``), in SQLite.
extension SQLitePromptStore {
    public func promptHistory(client: String, userID: String, now: Date, limit: Int) async throws -> [SeenPrompt] {
        try await writer.read { db in
            try Self.history(client: client, userID: userID, now: now, limit: limit, db: db)
        }
    }

    /// The user's entries, newest first: those still in the window at `now` (every one kept, for nil), at most
    /// `limit` (all, for nil). An entry whose signature another version wrote is read without one.
    package static func history(client: String, userID: String, now: Date?, limit: Int?, db: Database) throws -> [SeenPrompt] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT key, signature, shownAt FROM promptHistory
                WHERE ownerKey = ? AND userID = ? AND expiresAt > ? ORDER BY shownAt DESC LIMIT ?
                """,
            arguments: [client, userID, now?.timeIntervalSince1970 ?? -Double.infinity, limit ?? -1]
        )
        return rows.map { row in
            SeenPrompt(
                key: row["key"],
                signature: PromptSignature(stored: row["signature"]) ?? .none,
                shownAt: Date(timeIntervalSince1970: row["shownAt"])
            )
        }
    }
}
