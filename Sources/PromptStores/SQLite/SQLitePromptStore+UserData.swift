import Foundation
import GRDB
import PromptDomain

/// A user's export and deletion (``UserDataStore``), in SQLite.
extension SQLitePromptStore {
    public func exportUser(client: String, userID: String) async throws -> UserExport {
        try await writer.read { db in
            let records = try SessionColumns.fetchAll(
                db,
                sql: "SELECT \(SessionColumns.names) FROM session WHERE ownerKey = ? AND userID = ? ORDER BY createdAt",
                arguments: [client, userID]
            )
            let feedback = try Row.fetchAll(
                db,
                sql: """
                    SELECT f.sessionId, f.promptId, f.action, f.createdAt FROM feedback f JOIN session s ON s.id = f.sessionId
                    WHERE s.ownerKey = ? AND s.userID = ? ORDER BY f.createdAt
                    """,
                arguments: [client, userID]
            )
            return UserExport(
                sessions: try records.map { try Self.snapshot(of: $0, db: db) },
                feedback: try feedback.map { try StoredValue.feedback(($0[0], $0[1], $0[2], $0[3]), caller: Caller(client: client, userID: userID)) },
                history: try Self.history(client: client, userID: userID, now: nil, limit: nil, db: db)
            )
        }
    }

    public func deleteUser(client: String, userID: String) async throws -> DeletedUserData {
        try await writer.write { db in
            let owned = "SELECT id FROM session WHERE ownerKey = ? AND userID = ?"
            let feedback = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feedback WHERE sessionId IN (\(owned))", arguments: [client, userID]) ?? 0
            // Rounds, prompts and feedback go with their session (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM session WHERE ownerKey = ? AND userID = ?", arguments: [client, userID])
            let sessions = db.changesCount
            try db.execute(sql: "DELETE FROM idempotentResponse WHERE client = ? AND userID = ?", arguments: [client, userID])
            let replays = db.changesCount
            try db.execute(sql: "DELETE FROM promptHistory WHERE ownerKey = ? AND userID = ?", arguments: [client, userID])
            return DeletedUserData(sessions: sessions, feedback: feedback, idempotencyRecords: replays, historyEntries: db.changesCount)
        }
    }
}
