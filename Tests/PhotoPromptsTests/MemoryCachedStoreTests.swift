import Foundation
import GRDB
import Testing

@testable import PhotoPrompts

@Suite("The in-memory cache layer in front of any store")
struct MemoryCachedStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let prompts = [ValidPrompt(text: "What drew your eye to the dog in this photo?", wordCount: 10)]

    /// Deletes every cache row underneath, so only the memory layer can still answer.
    static func emptyTable(_ base: SQLitePromptStore) async throws {
        try await base.writer.write { db in try db.execute(sql: "DELETE FROM cacheEntry") }
    }

    @Test("An entry written through the layer, or read through it once, is answered from memory until it expires")
    func answersFromMemory() async throws {
        let base = try SQLitePromptStore(writer: DatabaseQueue())
        let store = MemoryCachedStore(base)
        try await store.cache(CacheEntry(key: "written", prompts: Self.prompts, expiresAt: Self.now.addingTimeInterval(60)), at: Self.now)
        try await base.cache(CacheEntry(key: "read", prompts: Self.prompts, expiresAt: Self.now.addingTimeInterval(30)), at: Self.now)
        #expect(try await store.cacheEntry(forKey: "read", now: Self.now)?.prompts == Self.prompts)

        try await Self.emptyTable(base)
        #expect(try await base.cacheEntry(forKey: "written", now: Self.now) == nil)
        #expect(try await store.cacheEntry(forKey: "written", now: Self.now)?.prompts == Self.prompts)
        #expect(try await store.cacheEntry(forKey: "read", now: Self.now)?.expiresAt == Self.now.addingTimeInterval(30))
        // Expiry is checked on every read: the store's own expiry, not the time it was read.
        #expect(try await store.cacheEntry(forKey: "read", now: Self.now.addingTimeInterval(31)) == nil)
        #expect(try await store.cacheEntry(forKey: "written", now: Self.now.addingTimeInterval(61)) == nil)
    }

    @Test("A session created with a cache entry puts it in memory too, and a sweep forgets what expired")
    func sessionsAndSweeps() async throws {
        let base = try SQLitePromptStore(writer: DatabaseQueue())
        let store = MemoryCachedStore(base, capacity: 2)
        for (index, key) in ["a", "b", "c"].enumerated() {
            let entry = CacheEntry(key: key, prompts: Self.prompts, expiresAt: Self.now.addingTimeInterval(Double(10 * (index + 1))))
            try await store.cache(entry, at: Self.now)
        }
        try await Self.emptyTable(base)
        let remembered = try await ["a", "b", "c"].asyncCount { try await store.cacheEntry(forKey: $0, now: Self.now) != nil }
        #expect(remembered == 2, "bounded by its capacity")
        _ = try await store.pruneExpiredBatch(now: Self.now.addingTimeInterval(25), limit: 100)
        #expect(try await store.cacheEntry(forKey: "a", now: Self.now) == nil)
        #expect(try await store.cacheEntry(forKey: "b", now: Self.now) == nil)
    }
}

extension Array {
    fileprivate func asyncCount(_ predicate: (Element) async throws -> Bool) async rethrows -> Int {
        var count = 0
        for element in self where try await predicate(element) { count += 1 }
        return count
    }
}
