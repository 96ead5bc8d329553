import Foundation

/// Everything PhotoPrompts keeps, as the one store the app holds: each concern is a protocol of its own, and each
/// database implements them in files named alike (`SQLitePromptStore+Sessions.swift`,
/// `PostgresPromptStore+Sessions.swift`), so an operation's SQL for both sits side by side.
///
/// Two implementations: ``SQLitePromptStore``, the default (one instance, one file), and ``PostgresPromptStore``,
/// which several instances share. ``MemoryCachedStore`` wraps either with an in-memory layer for cache hits.
public protocol PromptStore: SessionStore, PromptCacheStore, IdempotencyStore, StatsStore, UserDataStore, StoreMaintenance {}

/// Settings both stores share.
public enum PromptStoreDefaults {
    /// How long a claim made for one request holds without being completed: a refresh reservation, a refresh
    /// turn, an idempotency key being answered. The service's claims last `LLM_TIMEOUT` plus ``claimMargin``;
    /// this default is for stores opened without a configuration (tests, `generate`).
    public static let claimLease: TimeInterval = 15 + claimMargin
    /// What a claim's lease adds to the request's deadline: every request is answered by `LLM_TIMEOUT` + 1 s, so
    /// a claim older than that belongs to a process that died, and the next request takes it over.
    public static let claimMargin: TimeInterval = 2
}
