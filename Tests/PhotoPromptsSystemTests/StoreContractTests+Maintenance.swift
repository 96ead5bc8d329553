import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PostgresNIO
import PromptDomain
import PromptStores
import Testing

/// A user's data, expiry, and what only PostgreSQL does: its own migrations and locks, and an unreachable server.
extension SystemTests.StoreContractTests {

    @Test("Export and delete cover exactly one user's sessions, feedback and kept answers", arguments: StoreKind.withTwin)
    func userData(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let store = try await database.open()
            let mine = Self.session(id: "s-mine")
            let theirs = Self.session(id: "s-theirs", userID: "u_2")
            try await store.createSession(mine)
            try await store.createSession(theirs)
            _ = try await store.recordFeedback(
                Feedback(sessionID: mine.id, promptID: mine.rounds[0].prompts[1].id, action: .dismissed, at: Self.now, caller: Self.owner)
            )
            let expiry = Self.now.addingTimeInterval(60)
            try await store.keepIdempotentResponse(
                .init(status: 200, body: [1], fingerprint: "f", userID: "u_1"),
                client: "ios",
                key: "a",
                expiresAt: expiry
            )
            try await store.keepIdempotentResponse(
                .init(status: 200, body: [2], fingerprint: "f", userID: "u_2"),
                client: "ios",
                key: "b",
                expiresAt: expiry
            )

            let export = try await store.exportUser(client: "ios", userID: "u_1")
            #expect(export.sessions.map(\.id) == [mine.id])
            #expect(export.feedback.map(\.action) == [.dismissed])
            #expect(try await store.exportUser(client: "web", userID: "u_1").sessions.isEmpty)

            let deleted = try await store.deleteUser(client: "ios", userID: "u_1")
            #expect(deleted.sessions == 1 && deleted.feedback == 1 && deleted.idempotencyRecords == 1)
            #expect(try await store.session(id: mine.id, now: Self.now) == nil)
            #expect(try await store.session(id: theirs.id, now: Self.now) != nil)
            #expect(try await store.idempotentResponse(client: "ios", key: "b", now: Self.now) != nil)
            #expect(try await store.exportUser(client: "ios", userID: "u_1").sessions.isEmpty)
            try await store.close()
        }
    }

    @Test("Pruning removes what expired and keeps the rest", arguments: StoreKind.withTwin)
    func pruning(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let store = try await database.open()
            try await store.createSession(Self.session(id: "s-old", expiresAt: Self.now.addingTimeInterval(10)))
            try await store.createSession(Self.session(id: "s-new", expiresAt: Self.now.addingTimeInterval(1000)))
            try await store.cache(CacheEntry(key: "old", prompts: [], expiresAt: Self.now.addingTimeInterval(10)), at: Self.now)
            try await store.cache(CacheEntry(key: "new", prompts: [], expiresAt: Self.now.addingTimeInterval(1000)), at: Self.now)
            let later = Self.now.addingTimeInterval(100)
            #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 1, cacheEntries: 1))
            #expect(try await store.session(id: "s-old", now: Self.now) == nil, "gone even for a reader whose clock says it is valid")
            #expect(try await store.session(id: "s-new", now: later) != nil)
            #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 0, cacheEntries: 0))
            try await store.close()
        }
    }

    @Test(
        "Pruning deletes in batches of at most the limit, each its own transaction, until nothing expired is left",
        arguments: StoreKind.withTwin
    )
    func pruningInBatches(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let store = try await database.open()
            for index in 0..<5 {
                try await store.createSession(Self.session(id: "s-old-\(index)", expiresAt: Self.now.addingTimeInterval(10)))
                try await store.cache(CacheEntry(key: "old-\(index)", prompts: [], expiresAt: Self.now.addingTimeInterval(10)), at: Self.now)
            }
            try await store.createSession(Self.session(id: "s-new", expiresAt: Self.now.addingTimeInterval(1000)))
            let later = Self.now.addingTimeInterval(100)
            #expect(try await store.pruneExpiredBatch(now: later, limit: 2) == PruneCount(sessions: 2, cacheEntries: 2))
            #expect(try await store.pruneExpired(now: later, batchSize: 2) == PruneCount(sessions: 3, cacheEntries: 3))
            #expect(try await store.pruneExpiredBatch(now: later, limit: 2) == PruneCount(sessions: 0, cacheEntries: 0))
            #expect(try await store.session(id: "s-new", now: later) != nil)
            try await store.close()
        }
    }

    @Test("PostgreSQL answers for the store tests, or they are reported as skipped (failed under CI)")
    func postgresIsAvailable() async throws {
        // A skipped parameterised case is not printed, so this one test says out loud that the PostgreSQL half of
        // the suite did not run; where a server is named, it must answer a query.
        guard let server = TestDatabase.serverURL else {
            TestDatabase.countNotRun()
            try MissingDependency.skipOrFail(TestDatabase.noServer)
        }
        let answer = try await TestDatabase.withConnection(to: server) { connection in
            var values: [Int] = []
            for try await value in try await connection.query("SELECT 40 + 2", logger: TestDatabase.logger).decode(Int.self) {
                values.append(value)
            }
            return values
        }
        #expect(answer == [42], "PostgreSQL at the test server's URL did not answer a query")
    }

    @Test("Three instances starting together on an empty database migrate it once")
    func concurrentMigrations() async throws {
        try await withTestDatabase(.postgres) { database in
            let stores = try await withThrowingTaskGroup(of: (any PromptStore).self) { group in
                for _ in 0..<3 { group.addTask { try await database.open() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(stores.count == 3)
            #expect(try await database.appliedMigrations() == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"])
            let session = Self.session()
            try await stores[0].createSession(session)
            #expect(try await stores[2].session(id: session.id, now: Self.now) != nil)
            for store in stores { try await store.close() }
        }
    }

    @Test("PostgreSQL's v9 packs the history's hex columns into the bytes SQLite's v9 writes")
    func historyMigration() async throws {
        try await withTestDatabase(.postgres) { database in
            try await database.withPostgresConnection { connection in
                try await connection.query("CREATE TABLE grdb_migrations (identifier text NOT NULL PRIMARY KEY)", logger: TestDatabase.logger)
                for migration in PostgresMigrations.all.prefix(8) {
                    for statement in migration.statements { try await connection.query(statement, logger: TestDatabase.logger) }
                    try await connection.query("INSERT INTO grdb_migrations (identifier) VALUES (\(migration.name))", logger: TestDatabase.logger)
                }
                for row in LegacyHistory.rows {
                    try await connection.query(
                        """
                        INSERT INTO promptHistory (ownerKey, userID, keys, signatures, shownAt, expiresAt)
                        VALUES ('ios', 'u_1', \(row.keys), \(row.signatures), \(row.shownAt), 9999)
                        """,
                        logger: TestDatabase.logger
                    )
                }
            }
            let store = try await database.open()
            let history = try await store.promptHistory(client: "ios", userID: "u_1", now: Date(timeIntervalSince1970: 0), limit: 10)
            #expect(history.map(\.key) == LegacyHistory.expected.map(\.key))
            #expect(history.map(\.signature.terms) == LegacyHistory.expected.map(\.terms))
            #expect(history.map(\.shownAt.timeIntervalSince1970) == LegacyHistory.expected.map(\.shownAt))
            try await store.close()
        }
    }

    @Test("While one instance holds the pruning lock, another instance's prune round removes nothing")
    func oneInstancePrunesAtATime() async throws {
        try await withTestDatabase(.postgres) { database in
            let store = try await database.open()
            try await store.createSession(Self.session(id: "s-old", expiresAt: Self.now.addingTimeInterval(10)))
            let later = Self.now.addingTimeInterval(100)
            try await database.withPostgresConnection { otherInstance in
                try await otherInstance.query("SELECT pg_advisory_lock(\(Self.pruningLockKey))", logger: TestDatabase.logger)
                #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 0, cacheEntries: 0))
                #expect(try await store.session(id: "s-old", now: Self.now) != nil)
                try await otherInstance.query("SELECT pg_advisory_unlock(\(Self.pruningLockKey))", logger: TestDatabase.logger)
            }
            #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 1, cacheEntries: 0))
            try await store.close()
        }
    }

    @Test("A PostgreSQL that does not answer fails start-up in time, naming the database without its password")
    func unreachableDatabase() async throws {
        let url = try #require(PostgresURL("postgres://photo:hunter2-secret@127.0.0.1:\(try freeLoopbackPort())/prompts?sslmode=disable"))
        let started = ContinuousClock.now
        await #expect {
            _ = try await PostgresPromptStore.runningItsOwnPool(url: url, startupTimeout: .seconds(1), logger: Logger(label: "test"))
        } throws: { error in
            let message = "\(error)"
            return message.contains("postgres://photo:***@127.0.0.1") && !message.contains("hunter2-secret")
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    /// The pruning lock's key, as documented in docs/DEPLOYMENT.md, so an operator can see who holds it.
    static let pruningLockKey: Int64 = 0x5048_5052_0002
}
