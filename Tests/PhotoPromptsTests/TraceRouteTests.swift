import Foundation
import InMemoryTracing
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain
import Testing
import Tracing

/// One request, followed: a span under the caller's, a child for each step, the trace sent on to the provider, and
/// the trace id in every error body. The spans are read from a tracer that keeps them; the ids are the test's own.
@Suite("Traces: one request from the app's call to the model's reply")
struct TraceRouteTests {
    /// Words only the user wrote: no span may hold them.
    static let caption = "grandmother's secret lemon cake"
    static let userID = "u_trace_private"
    static let photo = #"{"user_id": "u_trace_private", "photo": {"labels": ["lantern", "festival"], "caption": "grandmother's secret lemon cake"}}"#
    static let cards = [
        "Who lit the first lantern at the festival that evening?",
        "What did the festival smell like as the lanterns rose?",
        "Which wish did you whisper as your lantern drifted away?",
        "Who lit the lantern?",
    ]
    /// A W3C parent as the app would send it, and the trace id in it.
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test("A request is a span under the caller's, with a child for each step, named and counted, and no user text")
    func spansOfOneRequest() async throws {
        let tracer = InMemoryTracer()
        let backend = ScriptedBackend(name: "m", replies: [Self.cards], usage: TokenUsage(prompt: 120, completion: 40))
        let parent = [(name: InMemoryTracer.traceIDKey, value: "trace-app"), (name: InMemoryTracer.spanIDKey, value: "span-app")]
        try await withRouterService(backends: [backend], tracer: tracer) { client in
            let reply = try await client.post("/v1/prompts", json: Self.photo, headers: parent)
            #expect(reply.status == 200)
        }
        let spans = tracer.finishedSpans
        let server = try #require(spans.first { $0.kind == .server })
        #expect(server.operationName == "POST /v1/prompts")
        #expect(server.traceID == "trace-app")
        #expect(server.parentSpanID == "span-app", "the caller's span is the request's parent")
        #expect(server.attributes["http.route"]?.toSpanAttribute() == "/v1/prompts")
        #expect(server.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        let byName = Dictionary(spans.map { ($0.operationName, $0) }) { first, _ in first }
        for step in ["read body", "plan", "history and cache read", "single-flight", "model call", "gate", "store write"] {
            let span = try #require(byName[step], "no \(step) span")
            #expect(span.traceID == "trace-app")
            #expect(Self.ancestors(of: span, in: spans).contains(server.spanID), "\(step) is not under the request's span")
        }
        let call = try #require(byName["model call"])
        #expect(call.parentSpanID == byName["single-flight"]?.spanID)
        #expect(call.kind == .client)
        #expect(call.attributes["gen_ai.system"]?.toSpanAttribute() == "scripted")
        #expect(call.attributes["gen_ai.request.model"]?.toSpanAttribute() == "m")
        #expect(call.attributes["photo_prompts.attempt"]?.toSpanAttribute() == 1)
        #expect(call.attributes["photo_prompts.outcome"]?.toSpanAttribute() == "ok")
        #expect(call.attributes["gen_ai.usage.input_tokens"]?.toSpanAttribute() == 120)
        #expect(call.attributes["gen_ai.usage.output_tokens"]?.toSpanAttribute() == 40)
        let version = try #require(byName["plan"]?.attributes["photo_prompts.template_version"]?.toSpanAttribute())
        #expect(call.attributes["photo_prompts.template_version"]?.toSpanAttribute() == version)
        let gate = try #require(byName["gate"])
        #expect(gate.attributes["photo_prompts.gate.kept"]?.toSpanAttribute() == 3)
        #expect(gate.attributes["photo_prompts.gate.rejected"]?.toSpanAttribute() == 1)
        #expect(gate.attributes["photo_prompts.gate.rejected.too_short"]?.toSpanAttribute() == 1, "four words: too short")
        // The provider is told the call's own span as its parent.
        let sent = try #require(backend.received.first?.traceHeaders)
        #expect(sent[InMemoryTracer.traceIDKey] == "trace-app")
        #expect(sent[InMemoryTracer.spanIDKey] == call.spanID)
        // Nothing the user wrote, and no prompt, in any span's name, attribute or event.
        let written = spans.map { "\($0.operationName) \($0.events) \($0.attributes)" }.joined(separator: " ").lowercased()
        for secret in [Self.caption, "lemon", Self.userID] + Self.cards.map { $0.lowercased() } {
            #expect(!written.contains(secret.lowercased()), "a span holds \(secret)")
        }
    }

    @Test("A streamed answer is a span under the request's, with an event for each card as it is sent, then done")
    func streamedAnswerSpan() async throws {
        let tracer = InMemoryTracer()
        let backend = ScriptedBackend(name: "m", replies: [Self.cards])
        try await withRouterService(backends: [backend], tracer: tracer) { client in
            let reply = try await client.post("/v1/prompts", json: Self.photo, headers: [("Accept", "text/event-stream")])
            #expect(String(decoding: reply.body, as: UTF8.self).contains("event: done"))
        }
        try await waitUntil { tracer.finishedSpans.contains { $0.kind == .server } }
        let spans = tracer.finishedSpans
        let server = try #require(spans.first { $0.kind == .server })
        let stream = try #require(spans.first { $0.operationName == "stream" })
        #expect(stream.parentSpanID == server.spanID)
        #expect(stream.events.map(\.name) == ["prompt", "prompt", "prompt", "done"])
        #expect(stream.events.compactMap { $0.attributes["photo_prompts.position"]?.toSpanAttribute() } == [0, 1, 2])
    }

    @Test("A refresh that waits behind another of its session shows the wait as a span of its own")
    func refreshTurnWait() async throws {
        let tracer = InMemoryTracer()
        // The first refresh's model call (call 1) is held until the second refresh is seen waiting for its turn: the
        // wait is there however long the second request takes to arrive, and the test waits on it, not on a clock.
        let backend = GatedBackend(replies: [Self.cards], gated: [1])
        defer { backend.open() }
        let waiter = [(name: InMemoryTracer.traceIDKey, value: "trace-waiter"), (name: InMemoryTracer.spanIDKey, value: "span-waiter")]
        try await withRouterService(backends: [backend], tracer: tracer) { service in
            let client = service.asUser(Self.userID)
            let session = try await client.startSession(Self.photo)
            let noCache = [(name: "Cache-Control", value: "no-cache")]
            async let first = client.send("POST", "/v1/sessions/\(session.sessionID)/refresh", headers: noCache)
            try await waitUntil { backend.calls == 2 }
            async let second = client.send("POST", "/v1/sessions/\(session.sessionID)/refresh", headers: noCache + waiter)
            try await waitUntil { tracer.activeSpans.contains { $0.operationName == "refresh turn wait" && $0.traceID == "trace-waiter" } }
            #expect(backend.calls == 2, "the second refresh waits for its turn before its model call")
            backend.open()
            #expect(try await first.status == 200)
            #expect(try await second.status == 200)
        }
        try await waitUntil { tracer.finishedSpans.count { $0.kind == .server } == 3 }
        let spans = tracer.finishedSpans
        let wait = try #require(spans.first { $0.operationName == "refresh turn wait" && $0.traceID == "trace-waiter" })
        let refresh = try #require(spans.first { $0.traceID == wait.traceID && $0.kind == .server })
        #expect(refresh.operationName == "POST /v1/sessions/{session_id}/refresh")
        #expect(Self.ancestors(of: wait, in: spans).contains(refresh.spanID))
        #expect(backend.arrivals(while: 1).isEmpty, "no model call while the first refresh's was held: \(backend.events)")
    }

    @Test("An error body names the caller's trace, and a request without one gets a trace of its own")
    func errorBodiesNameTheTrace() async throws {
        try await withRouterService { client in
            let named = try await client.post("/v1/prompts", json: #"{"photo": 7}"#, headers: [("traceparent", Self.traceparent)])
            #expect(named.status == 400)
            #expect(JSONLookup(try named.json)["error", "trace_id"].string == Self.traceID)
            let unknown = try await client.send("POST", "/v1/sessions/s_missing/refresh", headers: [("traceparent", Self.traceparent)])
            #expect(unknown.status == 404)
            #expect(JSONLookup(try unknown.json)["error", "trace_id"].string == Self.traceID)
            // No traceparent, or one that does not parse: a new id, 32 hex digits, another each time.
            var seen: Set<String> = []
            for header in [[], [("traceparent", "00-not-a-trace-01")]] as [[(name: String, value: String)]] {
                let reply = try await client.post("/v1/prompts", json: #"{"photo": 7}"#, headers: header)
                let id = try #require(JSONLookup(try reply.json)["error", "trace_id"].string)
                #expect(id.count == 32 && id.allSatisfy(\.isHexDigit) && id != Self.traceID)
                seen.insert(id)
            }
            #expect(seen.count == 2)
        }
    }

    @Test("With no trace exported, the model call passes the caller's traceparent and tracestate on unchanged")
    func traceRelayedToTheProvider() async throws {
        let backend = ScriptedBackend(name: "m", replies: [Self.cards])
        try await withRouterService(backends: [backend]) { client in
            let headers = [(name: "traceparent", value: Self.traceparent), (name: "tracestate", value: "app=journal")]
            #expect(try await client.post("/v1/prompts", json: Self.photo, headers: headers).status == 200)
            _ = try await client.post("/v1/prompts", json: Self.photo, headers: [("Cache-Control", "no-cache")])
        }
        let sent = backend.received.map(\.traceHeaders)
        #expect(sent.first == ["traceparent": Self.traceparent, "tracestate": "app=journal"])
        let own = try #require(sent.last?["traceparent"])
        #expect(own.hasPrefix("00-") && !own.contains(Self.traceID), "a request without a trace is sent one of its own")
    }

    /// The span ids above `span`, up to the root.
    static func ancestors(of span: FinishedInMemorySpan, in spans: [FinishedInMemorySpan]) -> [String] {
        var ids: [String] = []
        var parent = span.parentSpanID
        while let id = parent {
            ids.append(id)
            parent = spans.first { $0.spanID == id }?.parentSpanID
        }
        return ids
    }
}
