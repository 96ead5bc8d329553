import Foundation
import GRDB
import PromptDomain

/// Idempotency keys and the answers kept under them (``IdempotencyStore``), in SQLite.
extension SQLitePromptStore {
    public func idempotentResponse(client: String, key: String, now: Date) async throws -> StoredResponse? {
        try await writer.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT fingerprint, status, body, serverTiming, userID FROM idempotentResponse
                    WHERE client = ? AND key = ? AND expiresAt > ? AND status > 0
                    """,
                arguments: [client, key, now.timeIntervalSince1970]
            )
            return row.map(Self.storedResponse)
        }
    }

    public func claimIdempotencyKey(client: String, key: String, fingerprint: String, now: Date) async throws -> IdempotencyClaim {
        try await writer.write { db in
            // A claim is a row with status 0 that lapses like any other; a lapsed row (claim or answer) is taken over.
            try db.execute(
                sql: """
                    INSERT INTO idempotentResponse (client, key, fingerprint, status, body, serverTiming, userID, expiresAt)
                    VALUES (:client, :key, :fingerprint, 0, x'', NULL, NULL, :until)
                    ON CONFLICT (client, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = 0, body = x'',
                        serverTiming = NULL, userID = NULL, expiresAt = excluded.expiresAt
                    WHERE idempotentResponse.expiresAt <= :now
                    """,
                arguments: [
                    "client": client, "key": key, "fingerprint": fingerprint, "now": now.timeIntervalSince1970,
                    "until": now.timeIntervalSince1970 + claimLease,
                ]
            )
            if db.changesCount == 1 { return .claimed }
            let row = try Row.fetchOne(
                db,
                sql: "SELECT fingerprint, status, body, serverTiming, userID FROM idempotentResponse WHERE client = ? AND key = ?",
                arguments: [client, key]
            )
            guard let row else { return .running(fingerprint: fingerprint) }
            let stored = Self.storedResponse(row)
            return stored.status > 0 ? .answered(stored) : .running(fingerprint: stored.fingerprint)
        }
    }

    package static func storedResponse(_ row: Row) -> StoredResponse {
        StoredResponse(
            status: row["status"],
            body: [UInt8](row["body"] as Data),
            serverTiming: row["serverTiming"],
            fingerprint: row["fingerprint"],
            userID: row["userID"]
        )
    }

    public func keepIdempotentResponse(_ response: StoredResponse, client: String, key: String, expiresAt: Date) async throws {
        try await batcher.write { db in
            try db.execute(
                sql: """
                    INSERT INTO idempotentResponse (client, key, fingerprint, status, body, serverTiming, userID, expiresAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (client, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
                        body = excluded.body, serverTiming = excluded.serverTiming, userID = excluded.userID, expiresAt = excluded.expiresAt
                    WHERE idempotentResponse.status = 0
                    """,
                arguments: [
                    client, key, response.fingerprint, response.status, Data(response.body), response.serverTiming, response.userID,
                    expiresAt.timeIntervalSince1970,
                ]
            )
        }
    }

    public func releaseIdempotencyKey(client: String, key: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM idempotentResponse WHERE client = ? AND key = ? AND status = 0", arguments: [client, key])
        }
    }
}
