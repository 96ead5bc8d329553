import Logging
import PromptDomain
import ServiceLifecycle

/// Deletes expired sessions, cache entries and idempotent answers once `ready` returns (on PostgreSQL, after the
/// migrations), then every `interval`, in batches of ``batchSize`` rows of each kind with a pause between: SQLite
/// has one writer, and one long sweep made every request's write wait behind it.
public struct ExpiryPruningService: Service {
    /// Rows of each kind per transaction.
    package static let batchSize = 200
    /// The pause between batches, in which request writes go first.
    package static let pause: Duration = .milliseconds(10)

    package let store: any StoreMaintenance
    package let clock: any WallClock
    package let interval: Duration
    package let logger: Logger
    package let ready: @Sendable () async -> Void

    public init(
        store: any StoreMaintenance,
        clock: any WallClock,
        interval: Duration,
        logger: Logger,
        ready: @escaping @Sendable () async -> Void = {}
    ) {
        self.store = store
        self.clock = clock
        self.interval = interval
        self.logger = logger
        self.ready = ready
    }

    /// Prunes until the service group shuts down.
    public func run() async throws {
        // A shutdown before the server ever listened (an in-process router test has no server) ends the wait.
        await cancelWhenGracefulShutdown { await ready() }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let removed = try await store.pruneExpired(now: clock.now, batchSize: Self.batchSize, pause: Self.pause)
                if removed.sessions > 0 || removed.cacheEntries > 0 {
                    logger.info("pruned expired rows", metadata: ["sessions": "\(removed.sessions)", "cache_entries": "\(removed.cacheEntries)"])
                }
            } catch {
                logger.error("pruning failed", metadata: ["error": "\(error)"])
            }
            // Ends early, without error, when shutdown begins.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
