import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PostgresNIO
import Testing

extension SystemTests {
    /// What the API promises when PostgreSQL stalls or goes away, on a real server: another connection holds a lock
    /// the service's write waits on, or the database stops taking connections.
    @Suite("A stalled or missing database: deadline_exceeded, the streamed error, no replay of a 5xx, /readyz 503", .serialized, .tags(.slow))
    struct DatabaseStallTests {
        /// The service on `database`, with the stub model and a 1 s model budget.
        static func environment(stub: StubLLMFixture, database: TestDatabase) -> [String: String] {
            var environment = testEnvironment(stub: stub).merging(database.environment) { $1 }
            environment["DATABASE_PATH"] = nil
            return environment
        }

        @Test(
            "A write stuck behind another connection's lock: 503 deadline_exceeded with Retry-After by LLM_TIMEOUT + 1 s; the same key at once afterwards is served, not replayed or 409; streamed, event: error"
        )
        func stalledWrite() async throws {
            // LLM_TIMEOUT 0.5 s: the claim's lease (LLM_TIMEOUT + 2 s) then outlives the retry's own deadline by 0.75 s,
            // so only a key given back when the 503 was made lets the retry in.
            let timeout = 0.5
            try await withTestDatabase(.postgres) { database in
                try await withStubLLM { stub in
                    var environment = Self.environment(stub: stub, database: database)
                    environment["LLM_TIMEOUT"] = "\(timeout)"
                    try await withService(environment) { client in
                        #expect(try await client.startSession().source == .model)
                        let key = [(name: "Idempotency-Key", value: "stall-\(UUID().uuidString)")]
                        let photo = #"{"photo": {"labels": ["kite", "harbour"]}}"#
                        try await database.withPostgresConnection { connection in
                            @Sendable func lockSessions() async throws {
                                try await connection.query("BEGIN", logger: TestDatabase.logger)
                                try await connection.query("LOCK TABLE session IN ACCESS EXCLUSIVE MODE", logger: TestDatabase.logger)
                            }
                            try await lockSessions()
                            let start = ContinuousClock.now
                            let stalled = try await client.post("/v1/prompts", json: photo, headers: key)
                            let elapsed = ContinuousClock.now - start
                            #expect(stalled.status == 503, "\(String(decoding: stalled.body, as: UTF8.self))")
                            #expect(stalled.errorCode == "deadline_exceeded")
                            #expect(stalled.headers["retry-after"] == "1")
                            // The promise: every request is answered by LLM_TIMEOUT + 1 s.
                            #expect(elapsed < .seconds(timeout + 1), "LLM_TIMEOUT is \(timeout) s; answered in \(elapsed)")
                            try await connection.query("ROLLBACK", logger: TestDatabase.logger)

                            // The 503 was not kept, and the key was given back: a retry at once gets a real answer.
                            let retried = try await client.post("/v1/prompts", json: photo, headers: key)
                            #expect(retried.status == 200, "\(String(decoding: retried.body, as: UTF8.self))")
                            #expect(retried.headers["idempotent-replayed"] == nil)

                            try await lockSessions()
                            let streamed = try await client.stream("/v1/prompts", json: #"{"photo": {"labels": ["lantern"]}}"#)
                            #expect(streamed.status == 200, "the stream began before the store stalled")
                            let last = try #require(streamed.events.last)
                            #expect(last.name == "error", "\(streamed.events.map(\.name))")
                            let error = try #require(try last.json["error"] as? [String: any Sendable])
                            #expect(error["code"] as? String == "deadline_exceeded")
                            try await connection.query("ROLLBACK", logger: TestDatabase.logger)
                        }
                    }
                }
            }
        }

        @Test("/readyz is 503 not_ready, in time, while the database takes no connections, and 200 again once it does")
        func readinessFollowsTheDatabase() async throws {
            try await withTestDatabase(.postgres) { database in
                let server = try #require(TestDatabase.serverURL)
                let name = try #require(URLComponents(string: database.location)?.path.dropFirst()).description
                @Sendable func allowConnections(_ allowed: Bool) async throws {
                    try await TestDatabase.withConnection(to: server) { connection in
                        try await connection.query(
                            PostgresQuery(unsafeSQL: "ALTER DATABASE \(name) WITH ALLOW_CONNECTIONS \(allowed)"),
                            logger: TestDatabase.logger
                        )
                        if !allowed {
                            let terminate = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'"
                            try await connection.query(PostgresQuery(unsafeSQL: terminate), logger: TestDatabase.logger)
                        }
                    }
                }
                try await withStubLLM { stub in
                    try await withService(Self.environment(stub: stub, database: database)) { client in
                        #expect(try await client.send("GET", "/readyz").status == 200)
                        try await allowConnections(false)
                        let start = ContinuousClock.now
                        let down = try await client.send("GET", "/readyz")
                        #expect(ContinuousClock.now - start < .seconds(4), "readiness answers by its own deadline")
                        #expect(down.status == 503)
                        #expect(down.lookup["status"].string == "not_ready")
                        #expect(down.lookup["checks", "database"].string == "failing")
                        try await allowConnections(true)
                        try await waitUntil(timeout: .seconds(20)) { (try? await client.send("GET", "/readyz").status) == 200 }
                    }
                }
            }
        }
    }
}
