import Foundation
import PromptDomain

/// The cache of model answers, by a key that hashes every input that shapes them (``CacheKey``).
public protocol PromptCacheStore: Sendable {
    /// The entry under `key`, with its already-validated prompts, unless missing or expired at `now`.
    func cacheEntry(forKey key: String, now: Date) async throws -> CacheEntry?

    /// Stores `entry`, made at `now`, replacing any older entry under its key.
    func cache(_ entry: CacheEntry, at now: Date) async throws

    /// Tells the cache that `entry` was stored by another write (``SessionStore/createSession(_:caching:)``), so a
    /// layer in front of the database can keep it as written, its prompts' signatures included.
    func stored(_ entry: CacheEntry, at now: Date)

    /// The entry under `key` when a layer in front of the database holds it, without a read: nil otherwise.
    func inMemory(forKey key: String, now: Date) -> CacheEntry?
}

/// A database keeps nothing in front of itself.
extension PromptCacheStore {
    public func stored(_ entry: CacheEntry, at now: Date) {}

    public func inMemory(forKey key: String, now: Date) -> CacheEntry? { nil }
}
