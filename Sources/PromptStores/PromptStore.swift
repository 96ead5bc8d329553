/// Everything PhotoPrompts keeps: a protocol per concern, which each database implements in files named alike
/// (`SQLitePromptStore+Sessions.swift`, `PostgresPromptStore+Sessions.swift`), so an operation's SQL sits side by
/// side. ``SQLitePromptStore`` is the default (one instance, one file); ``PostgresPromptStore`` is shared.
public protocol PromptStore: SessionStore, PromptHistoryStore, PromptCacheStore, IdempotencyStore, StatsStore, ConsoleArchiveStore, UserDataStore,
    StoreMaintenance
{}
