/// Everything PhotoPrompts keeps, as the one store the app holds: each concern is a protocol of its own, and each
/// database implements them in files named alike (`SQLitePromptStore+Sessions.swift`,
/// `PostgresPromptStore+Sessions.swift`), so an operation's SQL for both sits side by side.
///
/// Two implementations: ``SQLitePromptStore``, the default (one instance, one file), and ``PostgresPromptStore``,
/// which several instances share. ``MemoryCachedStore`` wraps either with an in-memory layer for cache hits.
public protocol PromptStore: SessionStore, PromptHistoryStore, PromptCacheStore, IdempotencyStore, StatsStore, ConsoleArchiveStore, UserDataStore,
    StoreMaintenance
{}
