import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

extension SystemTests {
    @Suite("Idempotency-Key: a retry gets the first answer and never costs the user")
    struct IdempotencyTests {
        static func key() -> (name: String, value: String) { ("Idempotency-Key", UUID().uuidString) }

        @Test("20 simultaneous retries of POST /v1/prompts, the first still running, make one session and one backend call")
        func concurrentRetriesShareOneAnswer() async throws {
            try await withStubLLM(latencyMilliseconds: 300) { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let key = Self.key()
                    let replies = try await withThrowingTaskGroup(of: ServiceClient.Reply.self) { group in
                        for _ in 0..<20 {
                            group.addTask { try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key]) }
                        }
                        return try await group.reduce(into: [ServiceClient.Reply]()) { $0.append($1) }
                    }
                    #expect(replies.allSatisfy { $0.status == 200 })
                    #expect(Set(replies.map(\.body)).count == 1, "every retry gets the first answer byte for byte")
                    #expect(replies.filter { $0.headers["idempotent-replayed"] == nil }.count == 1)
                    #expect(await stub.calls == 1)
                    let later = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key])
                    #expect(later.body == replies[0].body)
                    #expect(later.headers["idempotent-replayed"] == "true")
                }
            }
        }

        @Test("Retries of a refresh spend one refresh, however many arrive at once")
        func refreshRetriesSpendOne() async throws {
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let session = try await client.startSession()
                    let key = Self.key()
                    let replies = try await withThrowingTaskGroup(of: ServiceClient.Reply.self) { group in
                        for _ in 0..<15 {
                            group.addTask { try await client.send("POST", "/v1/sessions/\(session.sessionID)/refresh", headers: [key]) }
                        }
                        return try await group.reduce(into: [ServiceClient.Reply]()) { $0.append($1) }
                    }
                    #expect(replies.allSatisfy { $0.status == 200 })
                    #expect(Set(replies.map(\.body)).count == 1)
                    #expect(replies[0].lookup["refreshes_used"].int == 1)
                    let stored = try await client.session(session.sessionID).lookup
                    #expect(stored["refreshes_used"].int == 1)
                    #expect(stored["rounds"].array.count == 2)
                }
            }
        }

        @Test("The same key with a different body, or on another route, is 422; a malformed key is 400")
        func reusedKey() async throws {
            try await withService(testEnvironment(stub: nil)) { client in
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
            }
        }

        @Test("A refused refresh (429) is replayed as it was; answers survive a restart and expire after 24 hours")
        func replayAcrossRestartAndExpiry() async throws {
            let clock = ManualWallClock()
            let databasePath = temporaryDatabasePath()
            var environment = testEnvironment(stub: nil, databasePath: databasePath)
            environment["SESSIONS_REFRESH_LIMIT"] = "0"
            environment["SESSIONS_TTL"] = "604800"
            let key = Self.key()
            let (first, refused) = try await withService(environment, clock: clock) { client in
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
            try await withService(environment, clock: clock) { client in
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
            var environment = testEnvironment(stub: nil)
            environment["API_KEYS"] = "\(ios.entry),\(web.entry)"
            try await withService(environment) { client in
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
}
