import Foundation
import Hummingbird
import HummingbirdTesting
import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import Testing

@testable import PhotoPrompts

/// The whole application, every middleware and route, driven in process through Hummingbird's router test client:
/// no socket, the embedded stub model, a SQLite file of the test's own. What needs a real socket, libcurl or another
/// process is in the system layer.
@Suite("The routes, in process")
struct RouterTests {
    /// The admin key of every router test: `/admin` and `/metrics` are served only with one.
    static let adminKey = "router-test-admin-key"

    static func withRouter(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await withRouter { client, _ in try await test(client) }
    }

    /// The router, and the path of its SQLite file for a test that opens it as a second instance would.
    static func withRouter(
        _ extra: [String: String] = [:],
        _ test: @escaping @Sendable (any TestClientProtocol, String) async throws -> Void
    ) async throws {
        let folder = scratchPath("router")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = [
            "DATABASE_PATH": folder.appendingPathComponent("test.sqlite").path,
            "SESSIONS_REFRESH_LIMIT": "5",
            "PROMPTS_DIRECTORY": repositoryPromptsDirectory,
            "PROMPTS_WATCH_INTERVAL": "0",
            "RATE_LIMIT_PER_USER": "0",
            "RATE_LIMIT_PER_KEY": "0",
            "ADMIN_API_KEY": adminKey,
        ]
        .merging(extra) { $1 }
        let application = try await app(environment)
        let databasePath = folder.appendingPathComponent("test.sqlite").path
        try await application.test(.router) { client in try await test(client, databasePath) }
    }

    static func post(_ client: some TestClientProtocol, _ uri: String, _ json: String) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: json))
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test("POST /v1/prompts answers three model prompts, the copy's language and the template, in the documented shape")
    func firstPrompts() async throws {
        try await Self.withRouter { client in
            let response = try await Self.post(client, "/v1/prompts", #"{"locale": "en-US", "photo": {"labels": ["beach"]}}"#)
            #expect(response.status == .ok)
            let body = try Self.json(response)
            let prompts = try #require(body["prompts"] as? [[String: Any]])
            #expect(prompts.count == 3)
            #expect(prompts.allSatisfy { ($0["source"] as? String) == "model" && (8...15).contains($0["word_count"] as? Int ?? 0) })
            #expect(body["copy_locale"] as? String == "en")
            #expect(
                Set(body.keys) == [
                    "session_id", "prompts", "source", "fallback_reason", "message", "copy_locale", "refreshes_used",
                    "refreshes_remaining", "template", "backend",
                ]
            )
        }
    }

    @Test("A Japanese user gets Japanese prompts counted in Japanese words, and refreshes them")
    func japanese() async throws {
        try await Self.withRouter { client in
            let first = try Self.json(try await Self.post(client, "/v1/prompts", #"{"locale": "ja_JP", "photo": {}}"#))
            let prompts = try #require(first["prompts"] as? [[String: Any]])
            let rule = WordRule.for(try #require(LanguageTag("ja")))
            for prompt in prompts {
                let text = try #require(prompt["text"] as? String)
                #expect(text.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) }, "kana in \(text)")
                #expect(prompt["word_count"] as? Int == rule.count(text))
            }
            let id = try #require(first["session_id"] as? String)
            let refreshed = try await client.execute(uri: "/v1/sessions/\(id)/refresh", method: .post)
            #expect(refreshed.status == .ok)
            #expect(try Self.json(refreshed)["refreshes_used"] as? Int == 1)
        }
    }

    @Test(
        "Bad input is a 400 naming the field",
        arguments: [
            (#"{"locale": "<script>", "photo": {}}"#, "locale"),
            (#"{"photo": {"people_count": -1}}"#, "photo.people_count"),
            (#"{"photo": {"taken_at": "yesterday"}}"#, "photo.taken_at"),
            (#"{"photo": {}, "photo": {}}"#, "photo"),
            (#"{"locale": "en"}"#, "photo"),
        ]
    )
    func badInput(body: String, field: String) async throws {
        try await Self.withRouter { client in
            let response = try await Self.post(client, "/v1/prompts", body)
            #expect(response.status == .badRequest)
            let error = try #require(try Self.json(response)["error"] as? [String: Any])
            #expect(error["details"] as? [String] == [field])
        }
    }

    @Test("English written for a Dutch user is rejected by the gate as wrong_language, counted in /metrics, and the fallback copy is shown")
    func gateRejectionsInMetrics() async throws {
        try await Self.withRouter { client in
            // The embedded stub writes the shipped languages; Dutch is not one, so it writes English.
            let response = try await Self.post(client, "/v1/prompts", #"{"locale": "nl-NL", "photo": {"labels": ["beach"]}}"#)
            #expect(response.status == .ok)
            let body = try Self.json(response)
            #expect(body["source"] as? String == "fallback")
            #expect(body["fallback_reason"] as? String == "invalid_output")
            let metrics = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.adminKey)"])
            let text = String(buffer: metrics.body)
            #expect(text.contains(#"photoprompts_rejections_total{reason="wrong_language"}"#), "\(text)")
        }
    }

    @Test("A refresh while the session's last slots are pending is a 409 to wait, with Retry-After and the true count, never the limit copy")
    func refreshWhilePending() async throws {
        try await Self.withRouter { client, databasePath in
            let first = try Self.json(try await Self.post(client, "/v1/prompts", #"{"locale": "es-ES", "photo": {"labels": ["beach"]}}"#))
            let id = try #require(first["session_id"] as? String)
            // Five refreshes in flight on another instance (or a double tap): none delivered yet.
            let other = try SQLitePromptStore(path: databasePath)
            for ordinal in 1...5 {
                let reservation = try await other.reserveRefresh(
                    sessionID: id,
                    limit: 5,
                    now: Date(),
                    caller: Caller(client: Caller.openClient, userID: nil)
                )
                #expect(reservation == .reserved(ordinal: ordinal))
            }
            let response = try await client.execute(uri: "/v1/sessions/\(id)/refresh", method: .post)
            #expect(response.status == .conflict)
            let retryAfter = try #require(response.headers[.retryAfter].flatMap { Int($0) })
            #expect((16...17).contains(retryAfter), "the pending slots' lease: LLM_TIMEOUT and its margin")
            let body = try Self.json(response)
            #expect(body["retry_after_seconds"] as? Int == retryAfter)
            #expect(body["refreshes_used"] as? Int == 0)
            #expect(body["refreshes_remaining"] as? Int == 5)
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "refresh_in_progress")
            #expect(error["message"] as? String != "Has alcanzado el límite de actualizaciones. ¡Escribe libremente!")
            #expect(body["copy_locale"] == nil)
            // One gives its slot back: the next refresh is served.
            try await other.releaseRefresh(sessionID: id)
            let served = try await client.execute(uri: "/v1/sessions/\(id)/refresh", method: .post)
            #expect(served.status == .ok)
            try await other.close()
        }
    }

    @Test("A locale the backend does not write (LLM_LANGUAGES) gets the fallback copy in its language at once, with its own reason")
    func unsupportedLanguage() async throws {
        try await Self.withRouter(["LLM_LANGUAGES": "en", "ADMIN_API_KEY": Self.adminKey]) { client, _ in
            let spanish = try Self.json(try await Self.post(client, "/v1/prompts", #"{"locale": "es-ES", "photo": {"labels": ["beach"]}}"#))
            #expect(spanish["source"] as? String == "fallback")
            #expect(spanish["fallback_reason"] as? String == "unsupported_language")
            #expect(spanish["copy_locale"] as? String == "es")
            let english = try Self.json(try await Self.post(client, "/v1/prompts", #"{"locale": "en-US", "photo": {"labels": ["beach"]}}"#))
            #expect(english["source"] as? String == "model")
            let metrics = String(
                buffer: try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.adminKey)"]).body
            )
            #expect(metrics.contains(#"reason="unsupported_language""#), "\(metrics)")
        }
    }

    @Test("Unknown routes are a JSON 404, a known route with the wrong method a 405 with Allow, an unknown session a 404")
    func routes() async throws {
        try await Self.withRouter { client in
            let missing = try await client.execute(uri: "/v2/nothing", method: .get)
            #expect(missing.status == .notFound)
            #expect(try Self.json(missing)["error"] != nil)
            let wrongMethod = try await client.execute(uri: "/v1/prompts", method: .get)
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "POST")
            let unknown = try await client.execute(uri: "/v1/sessions/s_nope/refresh", method: .post)
            #expect(unknown.status == .notFound)
            #expect((try Self.json(unknown)["error"] as? [String: Any])?["code"] as? String == "session_not_found")
        }
    }
}
