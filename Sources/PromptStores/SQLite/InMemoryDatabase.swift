import Foundation
import GRDB

/// A SQLite database that lives in memory for as long as this value does: the store twin of fast tests, and the
/// store of one-off runs such as `photo-prompts generate` that must not touch the service's file.
///
/// Each ``open(claimLease:)`` is a new ``SQLitePromptStore`` on the same data, as a second instance, or the same one
/// restarted, is on the same file; closing a store leaves the data to the next. It is the production store's own code
/// over a database in memory, so the contract suite holds it to the same rules as a file and PostgreSQL, and there is
/// no second implementation of those rules to keep in step.
public final class InMemoryDatabase: Sendable {
    /// One connection: the stores opened on it take turns, as SQLite's file lock makes processes do.
    private let queue: DatabaseQueue

    public init() throws {
        queue = try DatabaseQueue()
        // A copy of a database migrated once per process: every router test opens one of these, and running the
        // seven migrations for each was an eighth of building a test app. The store's own migrate then finds them
        // applied.
        try Self.migrated.get().backup(to: queue)
    }

    /// An empty database with every migration applied, made on first use.
    private static let migrated = Result {
        let queue = try DatabaseQueue()
        try SQLitePromptStore.migrator.migrate(queue)
        return queue
    }

    /// A new store on this database, migrating it if needed.
    public func open(claimLease: TimeInterval = PromptStoreDefaults.claimLease) throws -> SQLitePromptStore {
        try SQLitePromptStore(writer: queue, claimLease: claimLease, ownsWriter: false)
    }

    /// The names of the migrations applied, read straight from the database.
    public func appliedMigrations() throws -> [String] {
        try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
    }
}
