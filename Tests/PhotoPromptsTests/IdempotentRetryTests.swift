import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

@Suite("Idempotency-Key under concurrency: a retry gets the first answer and never costs the user")
struct IdempotentRetryTests {
    static func key() -> (name: String, value: String) { ("Idempotency-Key", UUID().uuidString) }

    @Test("20 simultaneous retries of POST /v1/prompts, the first still running, make one session and one backend call")
    func concurrentRetriesShareOneAnswer() async throws {
        let stub = StubBehaviourBackend(latencyMilliseconds: 300)
        try await withRouterService(backends: [stub]) { client in
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

    @Test("A key in use by another client's request is not in use for this one: both are answered, each with its own session")
    func keyInUseByAnotherClient() async throws {
        let ios = ClientKeys.generate(name: "ios")
        let web = ClientKeys.generate(name: "web")
        let stub = StubBehaviourBackend(latencyMilliseconds: 600)
        var environment = baseEnvironment()
        environment["API_KEYS"] = "\(ios.entry),\(web.entry)"
        try await withRouterService(environment, backends: [stub]) { client in
            let key = Self.key()
            let first = Task {
                try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [key, ("Authorization", "Bearer \(ios.key)")])
            }
            // The first request is in the model call, holding its claim on the key, when the other client sends it.
            try await waitUntil { await stub.state.inFlight == 1 }
            let other = try await client.post(
                "/v1/prompts",
                json: samplePhotoRequest,
                headers: [key, ("Authorization", "Bearer \(web.key)")]
            )
            let answered = try await first.value
            #expect(other.status == 200, "\(String(decoding: other.body, as: UTF8.self))")
            #expect(answered.status == 200)
            #expect(other.headers["idempotent-replayed"] == nil)
            #expect(try other.decode(PromptsResponse.self).sessionID != (try answered.decode(PromptsResponse.self)).sessionID)
        }
    }

    @Test("Retries of a refresh spend one refresh, however many arrive at once")
    func refreshRetriesSpendOne() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
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
