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
        let record = try CacheEntryRecord.filter(Column("key") == key && Column("expiresAt") > now.timeIntervalSince1970).fetchOne(db)
        return record.map { CacheEntry(key: key, prompts: $0.prompts, expiresAt: Date(timeIntervalSince1970: $0.expiresAt)) }
    }

    public func cache(_ entry: CacheEntry, at now: Date) async throws {
        let row = CacheEntryRow(entry, at: now)
        try await batcher.write { db in try row.upsert(into: db) }
    }
}
