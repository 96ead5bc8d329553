import Foundation
import Synchronization

/// Any store, with the most recently written or read cache entries kept in memory in front of it.
///
/// A cache hit is the hottest path; answering it from memory skips a database read, a thread hop and a JSON decode.
/// Entries are immutable per key (the key hashes every input), so the only staleness is expiry, which is checked
/// on every read. Bounded: when full, an arbitrary entry makes room (cheap, and a miss only costs one read). Every
/// other operation goes straight to the store underneath.
public final class MemoryCachedStore: PromptStore {
    private struct Entry {
        var prompts: [ValidPrompt]
        var expiresAt: Date
    }

    /// The store underneath.
    public let base: any PromptStore
    private let entries = Mutex<[String: Entry]>([:])
    private let capacity: Int

    /// Wraps `base`, keeping at most `capacity` entries in memory.
    public init(_ base: any PromptStore, capacity: Int = 10_000) {
        self.base = base
        self.capacity = capacity
    }

    // MARK: The cache, answered from memory when it can be

    public func cacheEntry(forKey key: String, now: Date) async throws -> CacheEntry? {
        if let entry = remembered(key, now: now) { return entry }
        guard let entry = try await base.cacheEntry(forKey: key, now: now) else { return nil }
        remember(entry.prompts, forKey: key, expiresAt: entry.expiresAt)
        return entry
    }

    public func cache(_ entry: CacheEntry, at now: Date) async throws {
        remember(entry.prompts, forKey: entry.key, expiresAt: entry.expiresAt)
        try await base.cache(entry, at: now)
    }

    public func createSession(_ session: NewSession, caching entry: CacheEntry?) async throws {
        if let entry { remember(entry.prompts, forKey: entry.key, expiresAt: entry.expiresAt) }
        try await base.createSession(session, caching: entry)
    }

    public func pruneExpiredBatch(now: Date, limit: Int) async throws -> PruneCount {
        entries.withLock { entries in entries = entries.filter { $0.value.expiresAt > now } }
        return try await base.pruneExpiredBatch(now: now, limit: limit)
    }

    private func remembered(_ key: String, now: Date) -> CacheEntry? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expiresAt > now else {
                entries[key] = nil
                return nil
            }
            return CacheEntry(key: key, prompts: entry.prompts, expiresAt: entry.expiresAt)
        }
    }

    private func remember(_ prompts: [ValidPrompt], forKey key: String, expiresAt: Date) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[key] = Entry(prompts: prompts, expiresAt: expiresAt)
        }
    }

    // MARK: Everything else, straight to the store

    public func session(id: String, now: Date) async throws -> SessionSnapshot? {
        try await base.session(id: id, now: now)
    }

    public func reserveRefresh(sessionID: String, limit: Int, now: Date, caller: Caller) async throws -> RefreshReservation {
        try await base.reserveRefresh(sessionID: sessionID, limit: limit, now: now, caller: caller)
    }

    public func commitRefresh(sessionID: String, now: Date, choose: @Sendable (Set<String>) -> RoundDraft) async throws -> CommittedRound {
        try await base.commitRefresh(sessionID: sessionID, now: now, choose: choose)
    }

    public func releaseRefresh(sessionID: String) async throws {
        try await base.releaseRefresh(sessionID: sessionID)
    }

    public func takeRefreshTurn(sessionID: String, holder: String, now: Date) async throws -> Bool {
        try await base.takeRefreshTurn(sessionID: sessionID, holder: holder, now: now)
    }

    public func endRefreshTurn(sessionID: String, holder: String) async throws {
        try await base.endRefreshTurn(sessionID: sessionID, holder: holder)
    }

    public func recordFeedback(_ feedback: NewFeedback) async throws -> FeedbackOutcome {
        try await base.recordFeedback(feedback)
    }

    public func addStats(_ counters: [StatsCounter]) async throws {
        try await base.addStats(counters)
    }

    public func stats(template name: String, from: Date, to: Date) async throws -> [StatsCounter] {
        try await base.stats(template: name, from: from, to: to)
    }

    public func idempotentResponse(client: String, key: String, now: Date) async throws -> StoredResponse? {
        try await base.idempotentResponse(client: client, key: key, now: now)
    }

    public func claimIdempotencyKey(client: String, key: String, fingerprint: String, userID: String?, now: Date) async throws -> IdempotencyClaim {
        try await base.claimIdempotencyKey(client: client, key: key, fingerprint: fingerprint, userID: userID, now: now)
    }

    public func keepIdempotentResponse(_ response: StoredResponse, client: String, key: String, expiresAt: Date) async throws {
        try await base.keepIdempotentResponse(response, client: client, key: key, expiresAt: expiresAt)
    }

    public func releaseIdempotencyKey(client: String, key: String) async throws {
        try await base.releaseIdempotencyKey(client: client, key: key)
    }

    public func exportUser(client: String, userID: String) async throws -> UserExport {
        try await base.exportUser(client: client, userID: userID)
    }

    public func deleteUser(client: String, userID: String) async throws -> DeletedUserData {
        try await base.deleteUser(client: client, userID: userID)
    }

    public func ping() async throws {
        try await base.ping()
    }

    public func close() async throws {
        try await base.close()
    }
}
