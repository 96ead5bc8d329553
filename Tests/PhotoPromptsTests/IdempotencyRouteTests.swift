import Foundation
import GRDB
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptStores
import Testing

/// What an Idempotency-Key promises that needs no model over HTTP. The concurrent retries stay in the system layer.
@Suite("Idempotency-Key through the router: reuse refused, replays across a restart, keys per client")
struct IdempotencyRouteTests {
    static func key() -> (name: String, value: String) { ("Idempotency-Key", UUID().uuidString) }

    @Test("The same key with a different body, or on another route, is 422; a malformed key is 400")
    func reusedKey() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let key = Self.key()
            let first = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key])
            #expect(first.status == 200)
            let other = try await client.post("/v1/prompts", json: #"{"photo": {"labels": ["other"]}}"#, headers: [key])
            #expect(other.status == 422)
            #expect(other.errorCode == "idempotency_key_reused")
            let session = try first.decode(PromptsResponse.self)
            let onRefresh = try await client.send("POST", "/v1/sessions/\(session.sessionID)/refresh", headers: [key])
            #expect(onRefresh.status == 422)
            let malformed = try await client.post(
                "/v1/prompts",
                json: samplePhotoRequest,
                headers: [("Idempotency-Key", String(repeating: "k", count: 256))]
            )
            #expect(malformed.status == 400)
            #expect(malformed.errorDetails == ["Idempotency-Key"])
            // Refused before any work (a body out of bounds): not an answer to keep, so a retry is judged again.
            let badKey = Self.key()
            let badBody = #"{"photo": {"labels": ["kite"]}, "locale": "not a locale tag at all"}"#
            let refused = try await client.post("/v1/prompts", json: badBody, headers: [badKey])
            #expect(refused.status == 400)
            let refusedAgain = try await client.post("/v1/prompts", json: badBody, headers: [badKey])
            #expect(refusedAgain.status == 400)
            #expect(refusedAgain.headers["idempotent-replayed"] == nil, "a refusal before the work is not replayed")
        }
    }

    @Test("A 503 from inside the keyed request is not kept: a retry at once, with the store back, gets a new answer, not 409 or the 503")
    func serverErrorReleasesTheKey() async throws {
        let database = try InMemoryDatabase()
        let store = try database.open()
        try await withRouterService(baseEnvironment(), store: store) { client in
            // The session's write fails inside the request (as a full disk would), after the key is claimed.
            try await store.writer.write { db in
                try db.execute(sql: "CREATE TRIGGER refuse_session BEFORE INSERT ON session BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
            }
            let key = Self.key()
            let failed = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key])
            #expect(failed.status == 503, "\(String(decoding: failed.body, as: UTF8.self))")
            #expect(failed.errorCode == "store_unavailable")
            try await store.writer.write { db in try db.execute(sql: "DROP TRIGGER refuse_session") }
            // Well inside the claim's lease (LLM_TIMEOUT + 2 s): only a released key lets the retry in.
            let retried = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key])
            #expect(retried.status == 200, "\(String(decoding: retried.body, as: UTF8.self))")
            #expect(retried.headers["idempotent-replayed"] == nil)
            let again = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key])
            #expect(again.headers["idempotent-replayed"] == "true", "the 200 is kept and replayed")
        }
    }

    @Test("A refused refresh (429) is replayed as it was; answers survive a restart and expire after 24 hours")
    func replayAcrossRestartAndExpiry() async throws {
        let clock = ManualWallClock()
        let databasePath = temporaryDatabasePath()
        var environment = baseEnvironment(databasePath: databasePath)
        environment["SESSIONS_REFRESH_LIMIT"] = "0"
        environment["SESSIONS_TTL"] = "604800"
        let key = Self.key()
        let (first, refused) = try await withRouterService(environment, clock: clock) { client in
            let first = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key])
            let session = try first.decode(PromptsResponse.self)
            let refreshKey = ("Idempotency-Key", "refresh-\(key.value)")
            let refused = try await client.send("POST", "/v1/sessions/\(session.sessionID)/refresh", headers: [refreshKey])
            #expect(refused.status == 429)
            let again = try await client.send("POST", "/v1/sessions/\(session.sessionID)/refresh", headers: [refreshKey])
            #expect(again.status == 429)
            #expect(again.body == refused.body)
            #expect(again.headers["idempotent-replayed"] == "true")
            return (first, refused)
        }
        #expect(refused.status == 429)
        try await withRouterService(environment, clock: clock) { client in
            let afterRestart = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key])
            #expect(afterRestart.body == first.body)
            clock.advance(by: 86_400 + 1)
            let afterExpiry = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key])
            #expect(afterExpiry.status == 200)
            #expect(try afterExpiry.decode(PromptsResponse.self).sessionID != (try first.decode(PromptsResponse.self)).sessionID)
        }
    }

    @Test("Keys are per client API key: the same Idempotency-Key from two clients gives two sessions")
    func scopedPerClient() async throws {
        let ios = ClientKeys.generate(name: "ios")
        let web = ClientKeys.generate(name: "web")
        var environment = baseEnvironment()
        environment["API_KEYS"] = "\(ios.entry),\(web.entry)"
        try await withRouterService(environment) { client in
            let key = Self.key()
            let fromIOS = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key, ("Authorization", "Bearer \(ios.key)")])
            let fromWeb = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key, ("Authorization", "Bearer \(web.key)")])
            #expect(fromIOS.status == 200)
            #expect(fromWeb.status == 200)
            #expect(fromWeb.headers["idempotent-replayed"] == nil)
            #expect(try fromIOS.decode(PromptsResponse.self).sessionID != (try fromWeb.decode(PromptsResponse.self)).sessionID)
        }
    }
}
