import Foundation
import GRDB

/// The ``PromptStore`` on SQLite through GRDB: one file, WAL mode, named migrations.
public struct SQLitePromptStore: PromptStore {
    package let writer: any DatabaseWriter
    /// Session and cache inserts go through here, so concurrent requests share commits.
    package let batcher: WriteBatcher
    package let claimLease: TimeInterval
    /// Whether closing this store closes its connection: not when an ``InMemoryDatabase`` lends it for its lifetime.
    package let ownsWriter: Bool
    /// For a file: refuses commits once the file is removed or replaced; nil in memory.
    let fileGuard: DatabaseFileGuard?

    /// How long a statement waits for a lock another process holds, in seconds.
    package static let busyTimeout: TimeInterval = 0.5

    /// Opens (creating if needed) the database at `path` and migrates it. Refresh slots left reserved by a process
    /// that stopped mid-request come back when their lease (`claimLease`) runs out, as on PostgreSQL.
    public init(path: String, claimLease: TimeInterval = PromptStoreDefaults.claimLease) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            let posix = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? $0.code : nil }
            // Foundation on Linux prefixes its reasons with a sentence that says nothing.
            let reason =
                posix.map { String(cString: strerror(Int32($0))) }
                ?? (error as NSError).localizedDescription.replacing("The operation could not be completed. ", with: "")
            throw StoreError.folderUnusable(directory.path, reason)
        }
        let fileGuard = DatabaseFileGuard(path: path)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Another process holding the file's lock (a backup, an operator's sqlite3 shell) makes a write wait this long,
        // then fail as busy, which the client gets as 503 with Retry-After: a request's answer must not wait longer.
        configuration.busyMode = .timeout(SQLitePromptStore.busyTimeout)
        configuration.prepareDatabase { db in
            // In WAL mode NORMAL never corrupts the file and survives a process crash; only an OS crash or power
            // loss can drop the last commits. It spares an fsync per commit, i.e. per new session.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Each group-commit write's savepoint keeps a statement journal, which spilled past 64 KiB into a temp
            // file: most of a busy writer's syscalls (about 20 a session). In memory it holds a batch's pages at most.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            fileGuard.remember()
            db.add(transactionObserver: fileGuard, extent: .databaseLifetime)
        }
        // DatabasePool puts the file in WAL mode: readers never wait for the writer.
        try self.init(writer: DatabasePool(path: path, configuration: configuration), claimLease: claimLease, fileGuard: fileGuard)
    }

    /// Uses `writer` as is (tests pass an in-memory `DatabaseQueue`); one the store does not own stays open on close.
    public init(writer: any DatabaseWriter, claimLease: TimeInterval = PromptStoreDefaults.claimLease, ownsWriter: Bool = true) throws {
        try self.init(writer: writer, claimLease: claimLease, ownsWriter: ownsWriter, fileGuard: nil)
    }

    private init(writer: any DatabaseWriter, claimLease: TimeInterval, ownsWriter: Bool = true, fileGuard: DatabaseFileGuard?) throws {
        self.fileGuard = fileGuard
        self.writer = writer
        self.claimLease = claimLease
        self.ownsWriter = ownsWriter
        self.batcher = WriteBatcher(writer: writer)
        try Self.migrator.migrate(writer)
    }
}
