import Foundation
import Logging
import PostgresNIO

/// The ``PromptStore`` on PostgreSQL through postgres-nio, for several instances sharing one database.
///
/// Every rule that must hold across instances is enforced by PostgreSQL itself, never by one process's memory:
/// - the refresh limit is one conditional `UPDATE`, which PostgreSQL serialises per row;
/// - refreshes of a session take turns through a leased column, and a refresh's commit locks the session row
///   (`FOR UPDATE`), so concurrent refreshes see each other's prompts;
/// - an idempotency key is claimed, and feedback recorded, by one `INSERT … ON CONFLICT` on a primary key;
/// - migrations and pruning run under advisory locks (``AdvisoryLockKey``).
///
/// The app wraps it in ``MemoryCachedStore``, which keeps cache entries in memory in front of the table.
public final class PostgresPromptStore: PromptStore {
    let client: PostgresClient
    /// Runs the connection pool. The pool must be running before the migrations at start-up, and must outlive the
    /// HTTP server at shutdown, so the store owns it rather than the service group.
    let pool: Task<Void, Never>
    let logger: Logger
    let claimLease: TimeInterval

    /// Connects to `url`, then migrates under the migration lock.
    ///
    /// - Parameters:
    ///   - maxConnections: The pool's size; PostgreSQL's own `max_connections` must cover every instance's pool.
    ///   - startupTimeout: How long to wait for the server to answer and the migrations to run.
    /// - Throws: `unreachable` naming the database (password masked) when it does not answer in time, or the error
    ///   of a failed migration.
    public init(
        url: PostgresURL,
        maxConnections: Int = 20,
        claimLease: TimeInterval = PromptStoreDefaults.claimLease,
        startupTimeout: Duration = .seconds(15),
        logger: Logger
    ) async throws {
        var configuration = url.clientConfiguration
        configuration.options.maximumConnections = maxConnections
        configuration.options.connectTimeout = .seconds(5)
        // The pool's own chatter (a connection closed, a lease before the pool task started) stays out of the log;
        // what fails a query reaches the caller as an error.
        var poolLogger = logger
        poolLogger.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
        self.client = client
        self.pool = Task { await client.run() }
        self.logger = logger
        self.claimLease = claimLease
        do {
            // The pool retries a server that does not answer for ever; start-up must fail instead, and say why.
            let applied = try await Self.withDeadline(startupTimeout, failing: StoreError.unreachable(url.redacted, startupTimeout)) {
                try await PostgresMigrations.migrate(client, logger: logger)
            }
            if !applied.isEmpty { logger.info("migrated the database", metadata: ["migrations": "\(applied.joined(separator: ","))"]) }
        } catch {
            pool.cancel()
            throw error
        }
    }

    static func withDeadline<Value: Sendable>(
        _ timeout: Duration,
        failing error: any Error,
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw error
            }
            defer { group.cancelAll() }
            // The first to finish decides: the body's value or error, or the deadline's error.
            guard let value = try await group.next() else { throw error }
            return value
        }
    }
}
