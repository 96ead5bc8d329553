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

@Suite("A chain of backends, through the router with stub-llm's writer in process")
struct BackendChainRouteTests {
    @Test(
        "An answer with no valid prompt hands over to the next backend; when none writes one, the last is re-asked; each call counts in model calls per session"
    )
    func unusableAnswerHandsOver() async throws {
        let primary = StubBehaviourBackend(.short, provider: "anthropic", model: "stub-anthropic")
        let secondary = StubBehaviourBackend(provider: "ollama", model: "stub-ollama")
        try await withRouterService(operatorEnvironment(prompts: try TemporaryPrompts()), backends: [primary, secondary]) { client in
            let answer = try await client.startSession()
            #expect(answer.source == .model)
            #expect(answer.backend == BackendIdentity(provider: "ollama", model: "stub-ollama"))
            #expect(await primary.calls == 1)
            #expect(await secondary.calls == 1)

            await secondary.set(.long)
            let unusable = try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#)
            #expect(unusable.fallbackReason == .invalidOutput)
            #expect(await primary.calls == 2, "the primary is not asked again")
            #expect(await secondary.calls == 3, "the secondary wrote the last reply, so it is the one re-asked")
            #expect(await secondary.lastRequestText.contains("too long at"))
            // The console's model calls per session, against the calls each backend received: a failover and a
            // re-ask are calls, 1 + 1 then 1 + 2 over two sessions.
            let stats = try await client.versionStats()
            #expect(stats["model_calls_per_session"].double == Double(await primary.calls + secondary.calls) / 2)
        }
    }

    @Test("A 429's Retry-After keeps later requests away from that backend; the refused call counts as a model call, the skip does not")
    func retryAfter() async throws {
        let primary = StubBehaviourBackend(.rateLimited, provider: "anthropic")
        let secondary = StubBehaviourBackend(provider: "openai")
        try await withRouterService(operatorEnvironment(prompts: try TemporaryPrompts()), backends: [primary, secondary]) { client in
            let first = try await client.startSession()
            #expect(first.backend?.provider == "openai")
            let second = try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#)
            #expect(second.backend?.provider == "openai")
            #expect(await primary.calls == 1, "skipped while Retry-After runs")
            #expect(await secondary.calls == 2)
            let stats = try await client.versionStats()
            #expect(stats["model_calls_per_session"].double == 3.0 / 2, "1 + 1, then the secondary alone")
        }
    }

    @Test("Breaker: N failures open it, requests fall back as unavailable at once, a probe after the cool-down closes it")
    func circuitBreaker() async throws {
        let clock = ManualWallClock()
        let stub = StubBehaviourBackend(.serverError)
        var environment = baseEnvironment()
        environment["BREAKER_FAILURES"] = "2"
        environment["BREAKER_COOLDOWN"] = "30"
        try await withRouterService(environment, clock: clock, backends: [stub]) { client in
            let noCache = [(name: "Cache-Control", value: "no-cache")]
            #expect(try await client.startSession(headers: noCache).fallbackReason == .backendError)
            #expect(try await client.startSession(headers: noCache).fallbackReason == .backendError)
            await stub.set(.normal)
            let open = try await client.startSession(headers: noCache)
            #expect(open.fallbackReason == .unavailable)
            #expect(open.message == "AI couldn't generate prompts. Write your own entry.")
            #expect(await stub.calls == 2, "no call while open")
            clock.advance(by: 31)
            let probe = try await client.startSession(headers: noCache)
            #expect(probe.source == .model)
            #expect(await stub.calls == 3)
            #expect(try await client.startSession(headers: noCache).source == .model)
            #expect(await stub.calls == 4, "closed again")
        }
    }
}
