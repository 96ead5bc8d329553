import Logging
import ServiceLifecycle

/// Deletes expired sessions and cache entries, once at start-up and then every `interval`.
public struct PruningService: Service {
    let store: any PromptStore
    let clock: any WallClock
    let interval: Duration
    let logger: Logger

    /// Creates the service.
    public init(store: any PromptStore, clock: any WallClock, interval: Duration, logger: Logger) {
        self.store = store
        self.clock = clock
        self.interval = interval
        self.logger = logger
    }

    /// Prunes until the service group shuts down.
    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let removed = try await store.pruneExpired(now: clock.now)
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
