import Foundation
import GRDB
import PromptDomain

/// The cache of model answers (``PromptCacheStore``), in SQLite.
extension SQLitePromptStore {
    public func cacheEntry(forKey key: String, now: Date) async throws -> CacheEntry? {
        try await writer.read { db in try Self.cacheEntry(forKey: key, now: now, db: db) }
    }

    /// The entry under `key` unless missing or expired at `now`, inside the caller's transaction.
    static func cacheEntry(forKey key: String, now: Date, db: Database) throws -> CacheEntry? {
        let sql = "SELECT prompts, expiresAt FROM cacheEntry WHERE key = ? AND expiresAt > ?"
        let row = try Row.fetchOne(db, sql: sql, arguments: [key, now.timeIntervalSince1970])
        return try row.map { try CacheEntryRow.entry(key: key, prompts: $0[0], expiresAt: $0[1]) }
    }

    public func cache(_ entry: CacheEntry, at now: Date) async throws {
        let row = CacheEntryRow(entry, at: now)
        try await batcher.write { db in try row.upsert(into: db) }
    }
}
