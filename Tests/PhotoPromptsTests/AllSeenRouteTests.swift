import Foundation
import InMemoryTracing
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

    @Test("A request that joins another's model call whose cards its user met waits for that call, then asks the model for its own")
    func joinerWaitsThenAsksForItsOwn() async throws {
        let tracer = InMemoryTracer()
        // The other user's call (call 1) answers only once this user's identical request is seen inside the
        // single-flight step: the join happens while the call is in flight however busy the run, with no latency to
        // guess. A request that joined makes no call of its own until the shared one answers; one that did not join
        // would call the model at once.
        let backend = GatedBackend(replies: [Self.first, Self.first, Self.second], gated: [1])
        defer { backend.open() }
        try await withRouterService(baseEnvironment(), backends: [backend], tracer: tracer) { client in
            let met = client.asUser("u_met")
            _ = try await met.startSession(Self.photo)
            async let other = client.asUser("u_other").post("/v1/prompts", json: Self.photo, headers: Self.noCache + Self.trace("other"))
            try await waitUntil { backend.calls == 2 }
            async let joining = met.post("/v1/prompts", json: Self.photo, headers: Self.noCache + Self.trace("met"))
            // The event: this user's request has reached the single-flight step. Joined, it stays there until the shared
            // call answers; had it not joined, its own call would end the step at once, so a finished one counts too.
            try await waitUntil {
                tracer.activeSpans.contains { $0.traceID == "trace-met" && $0.operationName == "single-flight" }
                    || tracer.finishedSpans.contains { $0.traceID == "trace-met" && $0.operationName == "single-flight" }
            }
            backend.open()
            let joined = try await joining.decode(PromptsResponse.self)
            #expect(try await other.status == 200)
            #expect(backend.calls == 3, "one call for the session, one shared by both requests, one of the joiner's own")
            #expect(joined.source == .model)
            #expect(joined.prompts.map(\.text).sorted() == Self.second.sorted())
            let avoided = try #require(backend.received.last?.messages.map(\.content).joined())
            #expect(Self.first.allSatisfy(avoided.contains), "the model is told which cards the user met")
        }
        // Which request made each call, from the trace the backend was sent: the shared call is the other user's,
        // and the joiner's own call arrived only after the shared call had answered.
        let callers = backend.received.map { $0.traceHeaders[InMemoryTracer.traceIDKey] }
        #expect(callers.dropFirst() == ["trace-other", "trace-met"], "\(callers)")
        #expect(backend.arrivals(while: 1).isEmpty, "a call arrived while the shared one was in flight: \(backend.events)")
        // The joiner's single-flight step made no model call: it waited on the other's.
        try await waitUntil { tracer.finishedSpans.count { $0.kind == .server } == 3 }
        let spans = tracer.finishedSpans
        let step = try #require(spans.first { $0.traceID == "trace-met" && $0.operationName == "single-flight" })
        let calls = spans.filter { $0.traceID == "trace-met" && $0.operationName == "model call" }
        #expect(calls.count == 1)
        #expect(!calls.contains { $0.parentSpanID == step.spanID }, "the joiner called the model inside the single-flight step")
    }

    /// Headers that make a request the root of the named trace, as an app's traceparent would.
    static func trace(_ name: String) -> [(name: String, value: String)] {
        [(name: InMemoryTracer.traceIDKey, value: "trace-\(name)"), (name: InMemoryTracer.spanIDKey, value: "span-\(name)")]
    }

    static let market = [
        "How did you feel about the market and the spices that day?",
        "What sounds do you remember from the market that morning?",
        "Who was with you at the market that afternoon?",
    ]
    /// The same three frames about the next photo: held by the month of a user who met the market's.
    static let harbour = market.map { $0.replacingOccurrences(of: "market", with: "harbor").replacingOccurrences(of: "spices", with: "boats") }

    @Test("Cards whose frames the user's month holds are asked again for, then shown, not the fallback copy")
    func heldFramesBeforeTheCopy() async throws {
        let (market, harbour) = (Self.market, Self.harbour)
        let backend = ScriptedBackend(name: "m", replies: [market, harbour, harbour])
        try await withRouterService(baseEnvironment(), backends: [backend]) { client in
            let user = client.asUser("u_month")
            _ = try await user.startSession(#"{"photo": {"labels": ["market", "spices"]}}"#)
            let answer = try await user.startSession(#"{"photo": {"labels": ["harbor", "boats"]}}"#)
            #expect(backend.calls == 3, "the held cards are asked again for, once")
            #expect(answer.source == .model)
            #expect(answer.prompts.map(\.text).sorted() == harbour.sorted())
        }
    }

    @Test("A cache hit of cards the user's month holds is a miss: the model is asked for fresh frames")
    func heldCacheHitAsksTheModel() async throws {
        let fresh = [
            "What did the harbor teach you about waiting for the tide?",
            "Which small detail of the boats do you notice only now?",
            "What has changed at the harbor since you took this photo?",
        ]
        let backend = ScriptedBackend(name: "m", replies: [Self.harbour, Self.market, fresh])
        try await withRouterService(baseEnvironment(), backends: [backend]) { client in
            _ = try await client.asUser("u_other").startSession(#"{"photo": {"labels": ["harbor", "boats"]}}"#)
            let user = client.asUser("u_month")
            _ = try await user.startSession(#"{"photo": {"labels": ["market", "spices"]}}"#)
            let answer = try await user.startSession(#"{"photo": {"labels": ["harbor", "boats"]}}"#)
            #expect(backend.calls == 3, "the cached harbour cards are held for this user")
            #expect(answer.prompts.map(\.text).sorted() == fresh.sorted())
        }
    }

    @Test("A refresh whose surplus the user's month holds asks the model, and shows the held cards only after fresh ones")
    func heldSurplusAsksTheModel() async throws {
        let free = [
            "What did the harbor teach you about waiting for the tide?",
            "Which small detail of the boats do you notice only now?",
            "What has changed at the harbor since you took this photo?",
        ]
        let later = [
            "What would your future self want to remember about the harbor?",
            "What were you grateful for as the boats came back in?",
            "What happened just before you reached the harbor that day?",
        ]
        let backend = ScriptedBackend(name: "m", replies: [Self.market, free + Self.harbour, later])
        try await withRouterService(baseEnvironment(), backends: [backend]) { client in
            let user = client.asUser("u_month")
            _ = try await user.startSession(#"{"photo": {"labels": ["market", "spices"]}}"#)
            let first = try await user.startSession(#"{"photo": {"labels": ["harbor", "boats"]}}"#)
            #expect(first.prompts.map(\.text).sorted() == free.sorted(), "the free frames first")
            let refreshed = try await user.refresh(first.sessionID).decode(PromptsResponse.self)
            #expect(backend.calls == 3, "the held surplus is not served while the model can write fresh frames")
            #expect(refreshed.prompts.map(\.text).sorted() == later.sorted())
        }
    }

    @Test("A stream never shows a card the user's month holds ahead of the free ones the model writes after it")
    func heldNotStreamedFirst() async throws {
        let free = [
            "What did the harbor teach you about waiting for the tide?",
            "Which small detail of the boats do you notice only now?",
            "What has changed at the harbor since you took this photo?",
        ]
        let backend = ScriptedBackend(name: "m", replies: [Self.market, Self.harbour + free])
        try await withRouterService(baseEnvironment(), backends: [backend]) { client in
            let user = client.asUser("u_month")
            _ = try await user.startSession(#"{"photo": {"labels": ["market", "spices"]}}"#)
            let reply = try await user.post(
                "/v1/prompts",
                json: #"{"photo": {"labels": ["harbor", "boats"]}}"#,
                headers: [(name: "Accept", value: "text/event-stream")]
            )
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(free.allSatisfy(text.contains), "\(text)")
            #expect(!Self.harbour.contains(where: text.contains), "\(text)")
        }
    }
}
