import Foundation
import GRDB

/// A SQLite database in memory for as long as this value lives: the store twin of fast tests, and the store of
/// one-off runs (`photo-prompts generate`) that must not touch the service's file. Each ``open(claimLease:)`` is a
/// new store on the same data, as a restarted or second instance is on a file. It is the production store's code,
/// so the contract suite holds it to the same rules, with no second implementation to keep in step.
public final class InMemoryDatabase: Sendable {
    /// One connection: the stores opened on it take turns, as SQLite's file lock makes processes do.
    private let queue: DatabaseQueue

    public init() throws {
        queue = try DatabaseQueue()
        // Copied from one migrated once per process: migrating for each router test was an eighth of building its app.
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
