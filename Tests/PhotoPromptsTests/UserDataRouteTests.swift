import Foundation
import GRDB
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

/// Export and delete, read back from the SQLite file itself.
@Suite("The user's data through the router: export everything, delete everything")
struct UserDataRouteTests {
    static let ios = ClientKeys.generate(name: "ios")
    static let web = ClientKeys.generate(name: "web")
    static func bearer(_ key: String) -> (name: String, value: String) { ("Authorization", "Bearer \(key)") }
    /// Rows in `table` for `userID`, read from the SQLite file itself.
    static func rows(_ path: String, _ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        let database = try DatabaseQueue(path: path)
        return try database.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }
    static let counts: [(table: String, sql: String)] = [
        ("session", "SELECT COUNT(*) FROM session WHERE userID = ?"),
        ("sessionRound", "SELECT COUNT(*) FROM sessionRound WHERE sessionId IN (SELECT id FROM session WHERE userID = ?)"),
        ("sessionPrompt", "SELECT COUNT(*) FROM sessionPrompt p WHERE p.sessionId IN (SELECT id FROM session WHERE userID = ?)"),
        ("feedback", "SELECT COUNT(*) FROM feedback WHERE sessionId IN (SELECT id FROM session WHERE userID = ?)"),
        ("idempotentResponse", "SELECT COUNT(*) FROM idempotentResponse WHERE userID = ?"),
    ]
    @Test("Export returns every session, round, prompt and feedback of that user under the calling key; delete removes the rows")
    func exportThenDelete() async throws {
        let databasePath = temporaryDatabasePath()
        var environment = baseEnvironment(databasePath: databasePath)
        environment["API_KEYS"] = "\(Self.ios.entry),\(Self.web.entry)"
        try await withRouterService(environment) { client in
            var alice = client
            alice.userID = "u_alice"
            let iosKey = Self.bearer(Self.ios.key)
            let first = try await alice.startSession(#"{"user_id": "u_alice", "photo": {"labels": ["kite"]}}"#, headers: [iosKey])
            let second = try await alice.post(
                "/v1/prompts",
                json: #"{"user_id": "u_alice", "photo": {"labels": ["lake"]}}"#,
                headers: [iosKey, ("Idempotency-Key", "alice-1")]
            )
            #expect(second.status == 200)
            _ = try await alice.send("POST", "/v1/sessions/\(first.sessionID)/refresh", headers: [iosKey])
            _ = try await alice.post(
                "/v1/sessions/\(first.sessionID)/feedback",
                json: #"{"prompt_id": "\#(first.prompts[0].id)", "action": "selected"}"#,
                headers: [iosKey]
            )
            var bob = client
            bob.userID = "u_bob"
            _ = try await bob.startSession(#"{"user_id": "u_bob", "photo": {"labels": ["tree"]}}"#, headers: [iosKey])
            // The same user id under another client key is another client's user.
            _ = try await alice.startSession(#"{"user_id": "u_alice", "photo": {"labels": ["web"]}}"#, headers: [Self.bearer(Self.web.key)])

            let export = try await client.send("GET", "/v1/users/u_alice/export", headers: [iosKey]).lookup
            #expect(export["user_id"].string == "u_alice")
            #expect(export["sessions"].array.count == 2)
            #expect(export["sessions", 0, "session_id"].string == first.sessionID)
            #expect(export["sessions", 0, "rounds"].array.count == 2)
            #expect(export["sessions", 0, "rounds", 0, "prompts"].array.count == 3)
            #expect(export["feedback"].array.count == 1)
            #expect(export["feedback", 0, "prompt_id"].string == first.prompts[0].id)

            for (table, sql) in Self.counts {
                #expect(try Self.rows(databasePath, sql, ["u_alice"]) > 0, "\(table) has rows before the delete")
            }
            let deleted = try await client.send("DELETE", "/v1/users/u_alice", headers: [iosKey])
            #expect(deleted.status == 200)
            #expect(deleted.lookup["deleted", "sessions"].int == 2)
            #expect(deleted.lookup["deleted", "feedback"].int == 1)
            #expect(deleted.lookup["deleted", "idempotency_records"].int == 1)

            #expect(try Self.rows(databasePath, "SELECT COUNT(*) FROM session WHERE userID = 'u_alice' AND ownerKey = 'ios'") == 0)
            #expect(try Self.rows(databasePath, "SELECT COUNT(*) FROM idempotentResponse WHERE userID = 'u_alice' AND client = 'ios'") == 0)
            #expect(try Self.rows(databasePath, "SELECT COUNT(*) FROM feedback") == 0)
            #expect(try Self.rows(databasePath, "SELECT COUNT(*) FROM sessionRound WHERE sessionId = ?", [first.sessionID]) == 0)
            #expect(try Self.rows(databasePath, "SELECT COUNT(*) FROM sessionPrompt WHERE sessionId = ?", [first.sessionID]) == 0)
            #expect(try Self.rows(databasePath, "SELECT COUNT(*) FROM session WHERE userID = 'u_bob'") == 1, "other users keep theirs")
            #expect(try Self.rows(databasePath, "SELECT COUNT(*) FROM session WHERE userID = 'u_alice' AND ownerKey = 'web'") == 1)
            #expect(try Self.rows(databasePath, "SELECT COUNT(*) FROM cacheEntry") > 0, "cache entries are not personal and stay")

            let afterwards = try await client.send("GET", "/v1/users/u_alice/export", headers: [iosKey]).lookup
            #expect(afterwards["sessions"].array.isEmpty)
            #expect(try await alice.send("GET", "/v1/sessions/\(first.sessionID)", headers: [iosKey]).status == 404)
        }
    }
}
