import Foundation
import Logging
import PostgresNIO
import PromptDomain
import Synchronization

/// The ``PromptStore`` on PostgreSQL through postgres-nio, for several instances sharing one database.
/// Every rule that must hold across instances is enforced by PostgreSQL itself, never by one process's memory:
/// - the refresh limit is one conditional `UPDATE`, which PostgreSQL serialises per row;
/// - refreshes of a session take turns through a leased column, and a refresh's commit locks the session row
///   (`FOR UPDATE`), so concurrent refreshes see each other's prompts;
/// - an idempotency key is claimed, and feedback recorded, by one `INSERT … ON CONFLICT` on a primary key;
/// - migrations and pruning run under advisory locks (``AdvisoryLockKey``).
///
/// The app wraps it in ``MemoryCachedStore``, which keeps cache entries in memory in front of the table.
public final class PostgresPromptStore: PromptStore {
    /// The connection pool (a ServiceLifecycle service). ``runningItsOwnPool(url:maxConnections:claimLease:startupTimeout:logger:)``
    /// runs it until ``close()``; a caller with a service group of its own may run it there instead, then ``migrate(startupTimeout:)``.
    public let client: PostgresClient
    package let url: PostgresURL
    package let logger: Logger
    package let claimLease: TimeInterval
    /// The pool's task when the store runs outside a service group (``runningItsOwnPool(url:maxConnections:claimLease:startupTimeout:logger:)``).
    private let ownPool = Mutex<Task<Void, Never>?>(nil)

    /// A store on `url` whose pool (``client``) does not run yet; nothing is sent until it does.
    /// - Parameter maxConnections: The pool's size; PostgreSQL's own `max_connections` must cover every instance's pool.
    public init(url: PostgresURL, maxConnections: Int = 20, claimLease: TimeInterval = PromptStoreDefaults.claimLease, logger: Logger) {
        var configuration = url.clientConfiguration
        configuration.options.maximumConnections = maxConnections
        configuration.options.connectTimeout = .seconds(5)
        // The pool's own chatter stays out of the log; what fails a query reaches the caller as an error.
        var poolLogger = logger
        poolLogger.logLevel = .error
        client = PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
        self.url = url
        self.logger = logger
        self.claimLease = claimLease
    }

    /// Migrates the database under the migration lock; the pool must be running.
    /// - Parameter startupTimeout: How long to wait for the server to answer and the migrations to run.
    /// - Throws: `unreachable` naming the database (password masked) when it does not answer in time, or the error
    ///   of a failed migration.
    public func migrate(startupTimeout: Duration = .seconds(15)) async throws {
        // The pool retries a server that does not answer for ever; start-up must fail instead, and say why.
        let (client, logger) = (self.client, self.logger)
        let applied: [String]
        do {
            // Once, at start-up, before the app's watch is served: a watch of its own.
            applied = try await DeadlineWatch().answer(by: .now + startupTimeout) { try await PostgresMigrations.migrate(client, logger: logger) }
        } catch is DeadlinePassed {
            throw StoreError.unreachable(url.redacted, startupTimeout)
        }
        if !applied.isEmpty { logger.info("migrated the database", metadata: ["migrations": "\(applied.joined(separator: ","))"]) }
    }

    /// A migrated store that runs its own pool until ``close()``, for use outside a service group: tests and tools.
    public static func runningItsOwnPool(
        url: PostgresURL,
        maxConnections: Int = 20,
        claimLease: TimeInterval = PromptStoreDefaults.claimLease,
        startupTimeout: Duration = .seconds(15),
        logger: Logger
    ) async throws -> PostgresPromptStore {
        let store = PostgresPromptStore(url: url, maxConnections: maxConnections, claimLease: claimLease, logger: logger)
        let client = store.client
        store.ownPool.withLock { $0 = Task { await client.run() } }
        do {
            try await store.migrate(startupTimeout: startupTimeout)
        } catch {
            try? await store.close()
            throw error
        }
        return store
    }

    /// Stops the pool this store runs itself, if it does; a pool run by a service group stops with the group.
    public func close() async throws {
        guard let pool = ownPool.withLock({ $0 }) else { return }
        pool.cancel()
        await pool.value
    }
}
