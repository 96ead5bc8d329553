import Foundation
import PromptDomain
import Synchronization

/// A prompt cache with its recent entries in memory in front: a hit, the hottest path, then skips a database read, a
/// thread hop and a JSON decode. An entry written with a session reaches memory on its first read. Entries are
/// immutable per key (it hashes every input), so only expiry, checked on every read, makes one stale. Bounded: when
/// full, expired entries go first, then an arbitrary one (a miss only costs one read).
public final class MemoryCachedStore: PromptCacheStore {
    public let base: any PromptCacheStore
    private let entries = Mutex<[String: CacheEntry]>([:])
    private let capacity: Int

    /// Wraps `base`, keeping at most `capacity` entries in memory.
    public init(_ base: any PromptCacheStore, capacity: Int = 10_000) {
        self.base = base
        self.capacity = capacity
    }

    public func cacheEntry(forKey key: String, now: Date) async throws -> CacheEntry? {
        if let entry = inMemory(forKey: key, now: now) { return entry }
        guard let entry = try await base.cacheEntry(forKey: key, now: now) else { return nil }
        stored(entry, at: now)
        return entry
    }

    public func cache(_ entry: CacheEntry, at now: Date) async throws {
        stored(entry, at: now)
        try await base.cache(entry, at: now)
    }

    public func stored(_ entry: CacheEntry, at now: Date) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[entry.key] == nil {
                entries = entries.filter { $0.value.expiresAt > now }
                if entries.count >= capacity, let victim = entries.keys.first { entries[victim] = nil }
            }
            entries[entry.key] = entry
        }
    }

    public func inMemory(forKey key: String, now: Date) -> CacheEntry? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expiresAt > now else {
                entries[key] = nil
                return nil
            }
            return entry
        }
    }
}
