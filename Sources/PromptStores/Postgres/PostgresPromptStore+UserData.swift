import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// A user's export and deletion (``UserDataStore``), in PostgreSQL.
extension PostgresPromptStore {
    public func exportUser(client clientName: String, userID: String) async throws -> UserExport {
        try await client.withConnection { connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: SessionColumns.names) FROM session WHERE ownerKey = \(clientName) AND userID = \(userID) ORDER BY createdAt",
                logger: logger
            )
            var sessions: [SessionSnapshot] = []
            for row in try await rows.decodeAll(SessionColumns.Values.self) {
                sessions.append(try await snapshot(of: SessionColumns(row), on: connection))
            }
            let feedbackRows = try await connection.query(
                """
                SELECT f.sessionId, f.promptId, f.action, f.createdAt FROM feedback f JOIN session s ON s.id = f.sessionId
                WHERE s.ownerKey = \(clientName) AND s.userID = \(userID) ORDER BY f.createdAt
                """,
                logger: logger
            )
            let caller = Caller(client: clientName, userID: userID)
            let feedbackValues = try await feedbackRows.decodeAll((String, String, String, Double).self)
            let feedback = try feedbackValues.map { try StoredValue.feedback($0, caller: caller) }
            return UserExport(
                sessions: sessions,
                feedback: feedback,
                history: try await history(client: clientName, userID: userID, now: nil, limit: nil, on: connection)
            )
        }
    }

    public func deleteUser(client clientName: String, userID: String) async throws -> DeletedUserData {
        // Rounds, prompts and feedback go with their session (ON DELETE CASCADE); the counts come back in one row.
        let rows = try await client.query(
            """
            WITH owned AS (SELECT id FROM session WHERE ownerKey = \(clientName) AND userID = \(userID)),
            feedbackCount AS (SELECT COUNT(*) AS value FROM feedback WHERE sessionId IN (SELECT id FROM owned)),
            deletedSessions AS (DELETE FROM session WHERE id IN (SELECT id FROM owned) RETURNING 1),
            deletedResponses AS (DELETE FROM idempotentResponse WHERE client = \(clientName) AND userID = \(userID) RETURNING 1),
            deletedHistory AS (DELETE FROM promptHistory WHERE ownerKey = \(clientName) AND userID = \(userID) RETURNING 1)
            SELECT (SELECT COUNT(*) FROM deletedSessions), (SELECT value FROM feedbackCount), (SELECT COUNT(*) FROM deletedResponses),
                (SELECT COUNT(*) FROM deletedHistory)
            """,
            logger: logger
        )
        let counts = try await rows.decodeFirst((Int, Int, Int, Int).self) ?? (0, 0, 0, 0)
        return DeletedUserData(sessions: counts.0, feedback: counts.1, idempotencyRecords: counts.2, historyEntries: counts.3)
    }
}
