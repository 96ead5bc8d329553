import PhotoPromptsTestSupport
import Testing

/// The console's "model calls per session" counts every call a session's answer made: a failover to the next
/// backend, a failed call and a re-ask, not a backend skipped for its `Retry-After`.
@Suite("Model calls per session: every call an answer made")
struct ModelCallsRouteTests {
    @Test("A failover and a re-ask are calls: 2 and 3 calls for two sessions, 2.5 a session")
    func failoverAndReaskCount() async throws {
        let primary = StubBehaviourBackend(.short, provider: "anthropic", model: "stub-anthropic")
        let secondary = StubBehaviourBackend(provider: "ollama", model: "stub-ollama")
        try await withRouterService(operatorEnvironment(prompts: try TemporaryPrompts()), backends: [primary, secondary]) { client in
            _ = try await client.startSession()
            await secondary.set(.long)
            _ = try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#)
            // Worked out from the calls each backend received: 1 + 1, then 1 + 2 (the secondary re-asked).
            let calls = await primary.calls + secondary.calls
            #expect(calls == 5)
            let stats = try await client.versionStats()
            #expect(stats["model_calls_per_session"].double == Double(calls) / 2)
        }
    }

    @Test("A call refused with 429 counts; the backend skipped while its Retry-After runs does not")
    func skippedBackendIsNoCall() async throws {
        let primary = StubBehaviourBackend(.rateLimited, provider: "anthropic")
        let secondary = StubBehaviourBackend(provider: "openai")
        try await withRouterService(operatorEnvironment(prompts: try TemporaryPrompts()), backends: [primary, secondary]) { client in
            _ = try await client.startSession()
            _ = try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#)
            let calls = await primary.calls + secondary.calls
            #expect(calls == 3, "1 + 1, then the secondary alone")
            let stats = try await client.versionStats()
            #expect(stats["model_calls_per_session"].double == Double(calls) / 2)
        }
    }
}
