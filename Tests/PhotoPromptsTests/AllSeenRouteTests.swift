import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import Testing

/// An answer whose good cards the user had all met is not the model's fault: the model is asked for new ones while
/// there is time, and only when it writes none does the answer fall back, as `all_seen`, counted as such.
@Suite("Cards the user met already: asked again, and named all_seen when nothing new comes")
struct AllSeenRouteTests {
    static let photo = #"{"photo": {"labels": ["lantern", "festival"]}}"#
    static let noCache = [(name: "Cache-Control", value: "no-cache")]
    static let first = [
        "Who lit the first lantern at the festival that evening?",
        "What did the festival smell like as the lanterns rose?",
        "Which wish did you whisper as your lantern drifted away?",
    ]
    static let second = [
        "How did the crowd fall quiet when the lanterns went up?",
        "What would you tell your future self about this festival night?",
        "Who would you bring along to the lantern festival next year?",
    ]

    @Test("A model that only repeats the user's cards is asked again, then falls back as all_seen, in /metrics and the stats")
    func repeatsFallBackAsAllSeen() async throws {
        let backend = ScriptedBackend(name: "m", replies: [Self.first])
        let prompts = try TemporaryPrompts()
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [backend]) { client in
            let user = client.asUser("u_met")
            #expect(try await user.startSession(Self.photo).prompts.map(\.text).sorted() == Self.first.sorted())
            let again = try await user.post("/v1/prompts", json: Self.photo, headers: Self.noCache)
            let answer = try again.decode(PromptsResponse.self)
            #expect(backend.calls == 3, "the first answer, then this one's call and its re-ask")
            #expect(answer.source == .fallback)
            #expect(answer.fallbackReason == .allSeen)
            #expect(Set(answer.prompts.map(\.text)).isDisjoint(with: Self.first))
            let metrics = try await client.metricsText()
            #expect(metrics.contains(#"photoprompts_fallbacks_total{reason="all_seen"} 1"#))
            #expect(!metrics.contains(#"reason="invalid_output""#), "the model is not blamed")
            let stats = try await client.versionStats()
            #expect(stats["fallbacks_by_reason", "all_seen"].int == 1)
            #expect(stats["fallbacks_by_reason", "invalid_output"].int == nil)
        }
    }

    @Test("A request that joins another's model call whose cards its user met asks the model for its own, in time")
    func joinerAsksForItsOwn() async throws {
        // A second a call: long enough that the second request arrives while the first call runs, however busy
        // the run, and within LLM_TIMEOUT (5 s) for both calls.
        let backend = ScriptedBackend(name: "m", replies: [Self.first, Self.first, Self.second], latency: .seconds(1))
        try await withRouterService(baseEnvironment(), backends: [backend]) { client in
            let met = client.asUser("u_met")
            _ = try await met.startSession(Self.photo)
            // Another user's uncached call is in flight when this user's identical request arrives and joins it.
            async let other = client.asUser("u_other").post("/v1/prompts", json: Self.photo, headers: Self.noCache)
            try await waitUntil { backend.calls == 2 }
            let joined = try await met.post("/v1/prompts", json: Self.photo, headers: Self.noCache).decode(PromptsResponse.self)
            #expect(try await other.status == 200)
            #expect(backend.calls == 3)
            #expect(joined.source == .model)
            #expect(joined.prompts.map(\.text).sorted() == Self.second.sorted())
            let avoided = try #require(backend.received.last?.messages.map(\.content).joined())
            #expect(Self.first.allSatisfy(avoided.contains), "the model is told which cards the user met")
        }
    }
}
