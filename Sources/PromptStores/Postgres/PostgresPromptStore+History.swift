import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Each user's prompt history (``PromptHistoryStore``), in PostgreSQL: every instance reads what the others wrote.
extension PostgresPromptStore {
    public func promptHistory(client clientName: String, userID: String, now: Date, limit: Int) async throws -> SeenHistory {
        try await client.withConnection { connection in
            try await history(client: clientName, userID: userID, now: now, limit: limit, on: connection)
        }
    }

    public func promptHistory(
        client clientName: String,
        userID: String?,
        now: Date,
        limit: Int,
        cacheKey: String
    ) async throws -> (SeenHistory, CacheEntry?) {
        try await client.withConnection { connection in
            var seen = SeenHistory()
            if let userID { seen = try await history(client: clientName, userID: userID, now: now, limit: limit, on: connection) }
            return (seen, try await cacheEntry(forKey: cacheKey, now: now, on: connection))
        }
    }

    /// The prompts of the user's newest `limit` answers (all, for nil) still in the window at `now` (every one kept,
    /// for nil), newest first.
    package func history(
        client clientName: String,
        userID: String,
        now: Date?,
        limit: Int?,
        on connection: PostgresConnection
    ) async throws -> SeenHistory {
        let rows = try await connection.query(
            """
            SELECT prompts, shownAt FROM promptHistory
            WHERE ownerKey = \(clientName) AND userID = \(userID) AND expiresAt > \(now?.timeIntervalSince1970 ?? -Double.greatestFiniteMagnitude)
            ORDER BY shownAt DESC LIMIT \(limit ?? Int(Int32.max))
            """,
            logger: logger
        )
        var history = SeenHistory()
        for try await (prompts, shownAt) in rows.decode((ByteBuffer, Double).self) {
            prompts.withUnsafeReadableBytes { history.append(packed: $0, shownAt: Date(timeIntervalSince1970: shownAt)) }
        }
        return history
    }
}
