import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain
import PromptGeneration
import PromptStores
import PromptTemplates
import StubLLM
import Testing

@Suite("Getting three good prompts at one backend call's cost")
struct GenerationStrategyTests {
    @Test("20 identical requests at once make one backend call and still get their own sessions")
    func singleFlight() async throws {
        let stub = StubBehaviourBackend(latencyMilliseconds: 300)
        try await withRouterService(backends: [stub]) { client in
            let answers = try await withThrowingTaskGroup(of: PromptsResponse.self) { group in
                for _ in 0..<20 { group.addTask { try await client.startSession() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(await stub.calls == 1)
            #expect(Set(answers.map(\.sessionID)).count == 20)
            #expect(answers.allSatisfy { $0.source == .model && $0.prompts.count == 3 })
            #expect(Set(answers.map { $0.prompts.map(\.text) }).count == 1)
        }
    }

    @Test("A caller that goes away does not fail the identical request that joined its backend call")
    func singleFlightOutlivesItsFirstCaller() async throws {
        let backend = SlowBackend()
        let generator = PromptGenerator(
            chain: BackendChain(backends: [backend], failureThreshold: 5, coolDown: 30, clock: SystemWallClock()),
            cache: try InMemoryDatabase().open(),
            clock: SystemWallClock(),
            timeout: .seconds(10),
            cacheTTL: 3600
        )
        let template = try PromptTemplate(name: "t", systemText: "Write {{candidate_count}}.", userText: "{{photo.caption}}")
        let input = PromptGenerator.Input(
            plan: try .testing(template, photo: PhotoMetadata(caption: "a dog on the beach"), language: LanguageTag(locale: "en-US")),
            round: 0,
            alreadyShown: [],
            readsCache: false
        )
        let logger = Logger(label: "test")
        let first = Task { await generator.generate(input, logger: logger) }
        try await Task.sleep(for: .milliseconds(100))
        let second = Task { await generator.generate(input, logger: logger) }
        try await Task.sleep(for: .milliseconds(100))
        // Like a client hanging up mid-request: the backend's sleep would throw if the cancellation reached it.
        first.cancel()
        let joined = await second.value
        #expect(joined.source == .model)
        #expect(joined.candidates.count == 6)
        #expect(await backend.calls.count == 1)
    }

    @Test("Too few valid candidates: the model is asked once more and told exactly what was rejected")
    func reask() async throws {
        let stub = StubBehaviourBackend(.mixed)
        try await withRouterService(backends: [stub]) { client in
            let answer = try await client.startSession()
            #expect(await stub.calls == 2)
            #expect(answer.prompts.map(\.source) == [.model, .model, .model])
            let feedback = await stub.lastRequestText
            #expect(feedback.contains("too short at 2 words"))
            #expect(feedback.contains("too long at"))
            #expect(feedback.contains("\nassistant: "), "the rejected reply is part of the conversation")
        }
    }

    @Test("A reply with no usable candidate is still judged: the model is re-asked with every rejection, and they are counted")
    func reaskAfterUnusableReply() async throws {
        let stub = StubBehaviourBackend(.short)
        let prompts = try TemporaryPrompts()
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [stub]) { client in
            let answer = try await client.startSession()
            #expect(answer.fallbackReason == .invalidOutput)
            #expect(answer.prompts.map(\.text) == productFallbacks)
            #expect(await stub.calls == 2, "six questions of 2–4 words: the model is asked once more")
            let feedback = await stub.lastRequestText
            #expect(feedback.contains("None of those questions could be used"))
            #expect(feedback.contains(#""Why here?": too short at 2 words"#))
            #expect(feedback.contains(#""How did it feel?": too short at 4 words"#))

            // Both replies' six rejections reach the operators' counts.
            #expect(try await client.metricsText().contains(#"photoprompts_rejections_total{reason="too_short"} 12"#))
            let version = try await client.versionStats()
            #expect(version["rejections", "too_short"].int == 12)
            #expect(version["reask_rate"].double == 1)
        }
    }

    @Test("20 identical requests sharing one answer count its candidates once, for the request that asked for it")
    func singleFlightCountsOnce() async throws {
        let stub = StubBehaviourBackend(.short, latencyMilliseconds: 300)
        let prompts = try TemporaryPrompts()
        try await withRouterService(operatorEnvironment(prompts: prompts, base: burstEnvironment()), backends: [stub]) { client in
            let answers = try await withThrowingTaskGroup(of: PromptsResponse.self) { group in
                for _ in 0..<20 { group.addTask { try await client.startSession() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(await stub.calls == 2, "one answer and its re-ask, shared by all 20")
            #expect(answers.allSatisfy { $0.fallbackReason == .invalidOutput })

            // The model wrote twelve 2–4-word questions in all; 20 requests showing the result do not make it 240.
            #expect(try await client.metricsText().contains(#"photoprompts_rejections_total{reason="too_short"} 12"#))
            let version = try await client.versionStats()
            #expect(version["requests"].int == 20)
            #expect(version["sessions"].int == 20)
            #expect(version["rejections", "too_short"].int == 12)
            #expect(version["reask_rate"].double == 1)
        }
    }

    @Test("A refresh served from the surplus judges nothing: the pass rate stays what the model's answer made it")
    func surplusIsNotJudgedAgain() async throws {
        let stub = StubBehaviourBackend()
        let prompts = try TemporaryPrompts()
        // Ten candidates, some naming the photo's dog: a few rejections, and enough kept for a surplus round.
        try prompts.write(
            "photo-journal/settings.json",
            #"{"candidate_count": 10, "checks": {"must_end_with_question_mark": true, "blocked_words": ["dog"]}}"#
        )
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [stub]) { client in
            let first = try await client.startSession()
            let answered = try await client.versionStats()
            let passRate = try #require(answered["pass_rate"].double)
            #expect(passRate < 1, "the blocked word rejects some of the ten")

            let refreshed = try await client.refresh(first.sessionID).decode(PromptsResponse.self)
            #expect(refreshed.source == .model)
            #expect(await stub.calls == 1, "served from the surplus")
            let version = try await client.versionStats()
            #expect(version["refreshes"].int == 1)
            #expect(version["pass_rate"].double == passRate)
            #expect(version["reask_rate"].double == answered["reask_rate"].double)
        }
    }

    @Test("The surplus of one answer serves the next refresh: no backend call, and it counts")
    func surplus() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            let first = try await client.startSession()
            let refreshed = try await client.refresh(first.sessionID).decode(PromptsResponse.self)
            #expect(await stub.calls == 1)
            #expect(refreshed.source == .model)
            #expect(refreshed.refreshesUsed == 1)
            #expect(Set(refreshed.prompts.map(\.text)).isDisjoint(with: first.prompts.map(\.text)))
            _ = try await client.refresh(first.sessionID)
            #expect(await stub.calls == 2, "the surplus is spent, so the model is asked")
        }
    }

    @Test("Server-Timing names render, cache, each backend attempt and validation")
    func serverTiming() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            let reply = try await client.post("/v1/prompts", json: samplePhotoRequest)
            let header = try #require(reply.headers["server-timing"])
            for part in ["cache;dur=", "render;dur=", "backend-1;dur=", "validate;dur=", "store;dur="] {
                #expect(header.contains(part), "\(part) missing from \(header)")
            }
            #expect(header.contains(#"desc="stub-behaviour/in-process ok""#))
            let cached = try await client.post("/v1/prompts", json: samplePhotoRequest)
            #expect(cached.headers["server-timing"]?.contains(#"cache;dur="#) == true)
            #expect(cached.headers["server-timing"]?.contains("backend") == false)
        }
    }
}

/// A backend that takes 400 ms, honours cancellation, and counts its calls.
private struct SlowBackend: LLMBackend {
    actor Calls {
        var count = 0
        func add() { count += 1 }
    }

    let identity = BackendIdentity(provider: "slow", model: "test")
    let calls = Calls()

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        await calls.add()
        try await Task.sleep(for: .milliseconds(400))
        return LLMReply(text: Self.questions.joined(separator: "\n"))
    }

    /// Six different questions: ones that differ only in a number would be near-duplicates, and one would be kept.
    static let questions = [
        "What did the dog on the beach chase first that morning?",
        "Who threw the ball for the dog on the beach today?",
        "How did the sand feel under your feet during the walk?",
        "Which sound from the waves do you want to remember longest?",
        "What were you talking about while the dog ran ahead?",
        "Why did you choose this beach for a walk with your dog?",
    ]

}
