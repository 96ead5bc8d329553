import Foundation
import GRDB
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PostgresNIO
import PromptStores
import Synchronization
import Testing

/// The stores every store test runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres
    /// The fast tests' twin, ``InMemoryDatabase``: held to the same rules, it has no environment a process could use.
    case memory

    var testDescription: String { rawValue }

    /// SQLite and PostgreSQL, always: without a server (``TestDatabase/serverURL``) each PostgreSQL case is reported
    /// as skipped, with the reason, in the run's count of skipped tests (under CI it fails); it never disappears.
    static var underTest: [StoreKind] { [.sqlite, .postgres] }

    /// The stores a suite that opens stores itself, in process, runs against: the twin too.
    static var withTwin: [StoreKind] { underTest + [.memory] }
}

/// A fresh, empty database of one kind, for one test: a SQLite file in a temporary folder, or a new database on
/// the PostgreSQL server for tests (`make test` starts one). Opening it twice gives two stores on
/// the same data, as two instances of the service would have.
struct TestDatabase: Sendable {
    let kind: StoreKind
    /// The SQLite file, or the `postgres://` URL: what `DATABASE_PATH` or `DATABASE_URL` would be set to.
    let location: String
    /// The twin's database, kept for the test's length.
    var inMemory: InMemoryDatabase? = nil

    /// The PostgreSQL server for tests, if there is one: `TEST_DATABASE_URL`, or else the URL
    /// `scripts/postgres/with-postgres.sh --url-file` keeps in ``serverURLFile`` while its server runs.
    static let serverURL: String? = {
        // An empty variable is no URL: the file is still read, as when the variable is unset.
        let candidates = [ProcessInfo.processInfo.environment["TEST_DATABASE_URL"], try? String(contentsOfFile: serverURLFile, encoding: .utf8)]
        return candidates.lazy.compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty }
    }()

    /// Where `make test` writes the URL: a file, not the environment, since SwiftPM recompiles every manifest when
    /// `swift test` runs in an environment it has not seen.
    static let serverURLFile = repositoryDirectory + "/.build/test-database-url"

    /// Why PostgreSQL tests cannot run here: the reason they were skipped, or under CI why they failed.
    static let noServer =
        "PostgreSQL: neither TEST_DATABASE_URL nor .build/test-database-url names a server (make test starts one)"

    /// PostgreSQL cases skipped for want of a server. A skipped case of a parameterised test prints nothing of its
    /// own, so the count is printed, loudly, as the test process ends.
    private static let notRun = Atomic(0)

    static func countNotRun() {
        guard notRun.add(1, ordering: .relaxed).oldValue == 0 else { return }
        atexit {
            let count = TestDatabase.notRun.load(ordering: .relaxed)
            FileHandle.standardError.write(Data("\n⚠︎ \(count) PostgreSQL test cases NOT RUN: \(TestDatabase.noServer)\n".utf8))
        }
    }

    /// The environment entry that points a service at this database.
    var environment: [String: String] {
        switch kind {
        case .sqlite: ["DATABASE_PATH": location]
        case .postgres: ["DATABASE_URL": location]
        case .memory: preconditionFailure("a database in memory is the test process's own: hand its store in instead")
        }
    }

    /// A new store on this database, migrating it if needed.
    func open(claimLease: TimeInterval = PromptStoreDefaults.claimLease) async throws -> any PromptStore {
        switch kind {
        case .sqlite:
            return try SQLitePromptStore(path: location, claimLease: claimLease)
        case .postgres:
            let url = try #require(PostgresURL(location))
            return try await PostgresPromptStore.runningItsOwnPool(url: url, maxConnections: 8, claimLease: claimLease, logger: Logger(label: "test"))
        case .memory:
            return try #require(inMemory).open(claimLease: claimLease)
        }
    }

    /// The names of the migrations applied, read straight from the database.
    func appliedMigrations() async throws -> [String] {
        switch kind {
        case .sqlite:
            return try await DatabaseQueue(path: location).read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            }
        case .memory:
            return try #require(inMemory).appliedMigrations()
        case .postgres:
            return try await Self.withConnection(to: location) { connection in
                var names: [String] = []
                let rows = try await connection.query("SELECT identifier FROM grdb_migrations ORDER BY identifier", logger: Self.logger)
                for try await name in rows.decode(String.self) { names.append(name) }
                return names
            }
        }
    }

    /// Runs `body` with one connection of its own to this PostgreSQL database, e.g. to hold an advisory lock.
    func withPostgresConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await Self.withConnection(to: location, body)
    }

    static let logger = Logger(label: "test-database")

    static func withConnection<T: Sendable>(to urlText: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let url = try #require(PostgresURL(urlText))
        let configuration = PostgresConnection.Configuration(
            host: url.host,
            port: url.port,
            username: url.username,
            password: url.password,
            database: url.database,
            tls: .disable
        )
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// Runs `body` with a fresh database of `kind`, and deletes it afterwards. Without a PostgreSQL server, a
/// PostgreSQL case is skipped with ``TestDatabase/noServer`` as its visible reason (under CI it fails), never passed.
func withTestDatabase<T: Sendable>(_ kind: StoreKind, _ body: (TestDatabase) async throws -> T) async throws -> T {
    switch kind {
    case .sqlite:
        return try await body(TestDatabase(kind: .sqlite, location: temporaryDatabasePath()))
    case .memory:
        return try await body(TestDatabase(kind: .memory, location: "memory", inMemory: try InMemoryDatabase()))
    case .postgres:
        guard let server = TestDatabase.serverURL, var components = URLComponents(string: server) else {
            TestDatabase.countNotRun()
            try MissingDependency.skipOrFail(TestDatabase.noServer)
        }
        let name = "photo_prompts_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await TestDatabase.withConnection(to: server) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: TestDatabase.logger)
        }
        components.path = "/\(name)"
        let database = TestDatabase(kind: .postgres, location: components.string ?? server)
        let drop = {
            try await TestDatabase.withConnection(to: server) { connection in
                try await connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: TestDatabase.logger)
            }
        }
        do {
            let result = try await body(database)
            try await drop()
            return result
        } catch {
            try? await drop()
            throw error
        }
    }
}
