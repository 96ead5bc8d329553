import Foundation
import GRDB
import PromptDomain
import PromptStores
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

    @Test("Bounded: when full, an expired entry makes room first, else an arbitrary one")
    func bounded() async throws {
        let base = try SQLitePromptStore(writer: DatabaseQueue())
        let store = MemoryCachedStore(base, capacity: 2)
        for (index, key) in ["a", "b", "c"].enumerated() {
            let entry = CacheEntry(key: key, prompts: Self.prompts, expiresAt: Self.now.addingTimeInterval(Double(10 * (index + 1))))
            try await store.cache(entry, at: Self.now)
        }
        try await Self.emptyTable(base)
        let remembered = try await ["a", "b", "c"].asyncCount { try await store.cacheEntry(forKey: $0, now: Self.now) != nil }
        #expect(remembered == 2, "bounded by its capacity")

        // "x" and "y" fill it; at 15 s "x" has expired, so "z" takes its place and "y" stays.
        let late = try MemoryCachedStore(SQLitePromptStore(writer: DatabaseQueue()), capacity: 2)
        try await late.cache(CacheEntry(key: "x", prompts: Self.prompts, expiresAt: Self.now.addingTimeInterval(10)), at: Self.now)
        try await late.cache(CacheEntry(key: "y", prompts: Self.prompts, expiresAt: Self.now.addingTimeInterval(60)), at: Self.now)
        let later = Self.now.addingTimeInterval(15)
        try await late.cache(CacheEntry(key: "z", prompts: Self.prompts, expiresAt: Self.now.addingTimeInterval(60)), at: later)
        try await Self.emptyTable(try #require(late.base as? SQLitePromptStore))
        #expect(try await late.cacheEntry(forKey: "y", now: later) != nil)
        #expect(try await late.cacheEntry(forKey: "z", now: later) != nil)
    }
}

extension Array {
    fileprivate func asyncCount(_ predicate: (Element) async throws -> Bool) async rethrows -> Int {
        var count = 0
        for element in self where try await predicate(element) { count += 1 }
        return count
    }
}
