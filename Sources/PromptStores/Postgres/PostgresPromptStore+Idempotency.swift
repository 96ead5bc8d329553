import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Idempotency keys and the answers kept under them (``IdempotencyStore``), in PostgreSQL.
extension PostgresPromptStore {
    public func idempotentResponse(client clientName: String, key: String, now: Date) async throws -> StoredResponse? {
        let rows = try await client.query(
            """
            SELECT fingerprint, status, body, serverTiming, userID FROM idempotentResponse
            WHERE client = \(clientName) AND key = \(key) AND expiresAt > \(now.timeIntervalSince1970) AND status > 0
            """,
            logger: logger
        )
        return try await rows.decodeFirst(StoredResponseColumns.self).map(Self.storedResponse)
    }

    public func claimIdempotencyKey(client clientName: String, key: String, fingerprint: String, now: Date) async throws -> IdempotencyClaim {
        let now = now.timeIntervalSince1970
        // A claim is a row with status 0 that lapses like any other; a lapsed row (claim or answer) is taken over.
        // The primary key decides between instances claiming at once.
        let claimed = try await client.query(
            """
            INSERT INTO idempotentResponse (client, key, fingerprint, status, body, serverTiming, userID, expiresAt)
            VALUES (\(clientName), \(key), \(fingerprint), 0, '', NULL, NULL, \(now + claimLease))
            ON CONFLICT (client, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = 0, body = '',
                serverTiming = NULL, userID = NULL, expiresAt = excluded.expiresAt
            WHERE idempotentResponse.expiresAt <= \(now)
            RETURNING 1
            """,
            logger: logger
        )
        if try await claimed.decodeFirst(Int.self) != nil { return .claimed }
        let rows = try await client.query(
            "SELECT fingerprint, status, body, serverTiming, userID FROM idempotentResponse WHERE client = \(clientName) AND key = \(key)",
            logger: logger
        )
        let stored = try await rows.decodeFirst(StoredResponseColumns.self).map(Self.storedResponse)
        // Released between the two statements: whoever asks again may claim it.
        guard let stored else { return .running(fingerprint: fingerprint) }
        return stored.status > 0 ? .answered(stored) : .running(fingerprint: stored.fingerprint)
    }

    package typealias StoredResponseColumns = (String, Int, ByteBuffer, String?, String?)

    package static func storedResponse(_ row: StoredResponseColumns) -> StoredResponse {
        StoredResponse(status: row.1, body: Array(buffer: row.2), serverTiming: row.3, fingerprint: row.0, userID: row.4)
    }

    public func keepIdempotentResponse(_ response: StoredResponse, client clientName: String, key: String, expiresAt: Date) async throws {
        try await client.query(
            """
            INSERT INTO idempotentResponse (client, key, fingerprint, status, body, serverTiming, userID, expiresAt)
            VALUES (\(clientName), \(key), \(response.fingerprint), \(response.status), \(ByteBuffer(bytes: response.body)),
                \(response.serverTiming), \(response.userID), \(expiresAt.timeIntervalSince1970))
            ON CONFLICT (client, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
                body = excluded.body, serverTiming = excluded.serverTiming, userID = excluded.userID, expiresAt = excluded.expiresAt
            WHERE idempotentResponse.status = 0
            """,
            logger: logger
        )
    }

    public func releaseIdempotencyKey(client clientName: String, key: String) async throws {
        try await client.query(
            "DELETE FROM idempotentResponse WHERE client = \(clientName) AND key = \(key) AND status = 0",
            logger: logger
        )
    }
}
