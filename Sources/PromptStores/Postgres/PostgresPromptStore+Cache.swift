import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// The cache of model answers (``PromptCacheStore``), in PostgreSQL.
extension PostgresPromptStore {
    public func cacheEntry(forKey key: String, now: Date) async throws -> CacheEntry? {
        try await client.withConnection { connection in try await cacheEntry(forKey: key, now: now, on: connection) }
    }

    func cacheEntry(forKey key: String, now: Date, on connection: PostgresConnection) async throws -> CacheEntry? {
        let row = try await connection.query(
            "SELECT prompts, expiresAt FROM cacheEntry WHERE key = \(key) AND expiresAt > \(now.timeIntervalSince1970)",
            logger: logger
        ).decodeFirst((String, Double).self)
        return try row.map { try CacheEntryRow.entry(key: key, prompts: $0.0, expiresAt: $0.1) }
    }

    public func cache(_ entry: CacheEntry, at now: Date) async throws {
        try await client.withConnection { connection in try await CacheEntryRow(entry, at: now).upsert(on: connection, logger: logger) }
    }
}

extension CacheEntryRow {
    func upsert(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO cacheEntry (key, prompts, createdAt, expiresAt)
            VALUES (\(key), \(prompts), \(createdAt), \(expiresAt))
            ON CONFLICT (key) DO UPDATE SET prompts = excluded.prompts, createdAt = excluded.createdAt, expiresAt = excluded.expiresAt
            """,
            logger: logger
        )
    }
}
