import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import StubLLM
import Testing

@Suite("POST /v1/prompts, refresh and GET session, through the router with stub-llm's writer in process")
struct PromptsAPIRouteTests {
    @Test("The first request returns three model prompts of 8–15 words in the documented shape")
    func firstPrompts() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            let reply = try await client.post("/v1/prompts", json: samplePhotoRequest)
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true)
            let json = try reply.json
            for key in ["session_id", "prompts", "source", "fallback_reason", "message", "refreshes_used", "refreshes_remaining", "template"] {
                #expect(json[key] != nil, "missing \(key)")
            }
            #expect(json["fallback_reason"] is NSNull)
            #expect(json["message"] is NSNull)
            let answer = try reply.decode(PromptsResponse.self)
            #expect(answer.source == .model)
            #expect(answer.prompts.count == 3)
            for prompt in answer.prompts {
                #expect((8...15).contains(WordCounter.count(prompt.text)))
                #expect(prompt.wordCount == WordCounter.count(prompt.text))
                #expect(prompt.source == .model)
            }
            #expect(Set(answer.prompts.map(\.id)).count == 3)
            #expect(answer.refreshesUsed == 0)
            #expect(answer.refreshesRemaining == 5)
            #expect(answer.template.name == "photo-journal")
            #expect(answer.template.version.count == 12)
            #expect(await stub.calls == 1)
        }
    }

    @Test("Session ids are opaque and carry at least 128 random bits")
    func sessionIDs() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            let first = try await client.startSession()
            let second = try await client.startSession()
            #expect(first.sessionID != second.sessionID)
            let digits = first.sessionID.dropFirst(2)
            #expect(digits.count * 5 >= 128, "base-32 digits carry 5 bits each")
        }
    }

    @Test("A request another user made before is answered from the cache without calling the backend")
    func cacheHit() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            let first = try await client.startSession()
            let second = try await client.asUser("u_other").startSampleSession()
            #expect(first.source == .model)
            #expect(second.source == .cache)
            #expect(second.prompts.map(\.source) == [.cache, .cache, .cache])
            #expect(second.prompts.map(\.text) == first.prompts.map(\.text))
            #expect(await stub.calls == 1)
        }
    }

    @Test("Cache-Control: no-cache skips the cache read and calls the backend")
    func noCacheHeader() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            _ = try await client.startSession()
            let fresh = try await client.startSession(headers: [("Cache-Control", "no-cache")])
            #expect(fresh.source == .model)
            #expect(await stub.calls == 2)
        }
    }

    @Test("Different metadata, locale or round never share a cache entry")
    func cacheKeyCoversInputs() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            _ = try await client.startSession(#"{"photo": {"labels": ["dog"]}}"#)
            #expect(try await client.startSession(#"{"photo": {"labels": ["cat"]}}"#).source == .model)
            #expect(try await client.startSession(#"{"locale": "pt-PT", "photo": {"labels": ["dog"]}}"#).source == .model)
            #expect(try await client.startSession(#"{"photo": {"labels": ["dog"]}, "user_id": "someone-else"}"#).source == .cache)
            #expect(await stub.calls == 3)
        }
    }

    @Test("Five refreshes show fifteen new prompts, none repeating any shown before, then 429")
    func refreshesNeverRepeat() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            let first = try await client.startSession()
            var shown = Set(first.prompts.map { PromptNormalizer.repeatKey($0.text) })
            for round in 1...5 {
                let reply = try await client.refresh(first.sessionID)
                #expect(reply.status == 200)
                let answer = try reply.decode(PromptsResponse.self)
                #expect(answer.sessionID == first.sessionID)
                #expect(answer.source == .model)
                #expect(answer.refreshesUsed == round)
                #expect(answer.refreshesRemaining == 5 - round)
                for prompt in answer.prompts {
                    #expect(shown.insert(PromptNormalizer.repeatKey(prompt.text)).inserted, "repeated: \(prompt.text)")
                }
            }
            #expect(shown.count == 18)
            let refused = try await client.refresh(first.sessionID)
            #expect(refused.status == 429)
            let body = try refused.json
            #expect(refused.errorCode == "refresh_limit_reached")
            #expect((body["error"] as? [String: Any])?["message"] as? String == "You've reached the refresh limit. Write freely!")
            #expect(body["refreshes_used"] as? Int == 5)
            #expect(body["refreshes_remaining"] as? Int == 0)
        }
    }

    @Test("Another user's session for the same photo replays the first one's rounds without calling the backend")
    func refreshesAreCachedByRound() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            let first = try await client.startSession()
            let firstRefreshes = [
                try await client.refresh(first.sessionID).decode(PromptsResponse.self),
                try await client.refresh(first.sessionID).decode(PromptsResponse.self),
            ]
            let callsBefore = await stub.calls
            let other = client.asUser("u_other")
            let second = try await other.startSampleSession()
            let secondRefreshes = [
                try await other.refresh(second.sessionID).decode(PromptsResponse.self),
                try await other.refresh(second.sessionID).decode(PromptsResponse.self),
            ]
            #expect(second.source == .cache)
            #expect(secondRefreshes.map(\.source) == [.model, .cache], "the surplus of the cached answer, then round 2's entry")
            #expect(secondRefreshes.map { $0.prompts.map(\.text) } == firstRefreshes.map { $0.prompts.map(\.text) })
            #expect(await stub.calls == callsBefore)
        }
    }

    @Test("GET returns the photo, every round shown and the counts; an unknown id is 404")
    func readSession() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            let first = try await client.startSession()
            let refreshed = try await client.refresh(first.sessionID).decode(PromptsResponse.self)
            let reply = try await client.session(first.sessionID)
            #expect(reply.status == 200)
            let session = try reply.decode(SessionResponse.self)
            #expect(session.sessionID == first.sessionID)
            #expect(session.userID == "u_123")
            #expect(session.photo.labels == ["beach", "sunset", "dog"])
            #expect(session.photo.location?.name == "Praia da Rocha")
            #expect(session.rounds.map(\.round) == [0, 1])
            #expect(session.rounds[0].prompts.map(\.id) == first.prompts.map(\.id))
            #expect(session.rounds[1].prompts.map(\.id) == refreshed.prompts.map(\.id))
            #expect(session.rounds.map(\.counted) == [false, true])
            #expect(session.refreshesUsed == 1)
            #expect(session.refreshesRemaining == 4)
            let rawRounds = try #require(try reply.json["rounds"] as? [[String: Any]])
            #expect(rawRounds.allSatisfy { $0["fallback_reason"] is NSNull }, "absent values are written as null")

            let missing = try await client.session("s_doesnotexist")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "session_not_found")
            let missingRefresh = try await client.refresh("s_doesnotexist")
            #expect(missingRefresh.status == 404)
            #expect(missingRefresh.errorCode == "session_not_found")
        }
    }
}
