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
        let rows = try await connection.query(
            "SELECT prompts, expiresAt FROM cacheEntry WHERE key = \(key) AND expiresAt > \(now.timeIntervalSince1970)",
            logger: logger
        )
        for try await (json, expiresAt) in rows.decode((String, Double).self) {
            return CacheEntry(key: key, prompts: try JSONColumn.decode([ValidPrompt].self, json), expiresAt: Date(timeIntervalSince1970: expiresAt))
        }
        return nil
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
