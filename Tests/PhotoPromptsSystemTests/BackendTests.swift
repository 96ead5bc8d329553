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

/// The providers that speak HTTP, each served by stub-llm in its own API shape.
let httpProviders = ["openai", "anthropic", "ollama"]

extension SystemTests {
    @Suite("Every backend kind, every fault: one deadline, a fallback with a reason")
    struct BackendFaultTests {
        @Test("Each provider's API shape is spoken and the answer names the backend and model", arguments: httpProviders)
        func answersInEveryShape(provider: String) async throws {
            try await withStubLLM { stub in
                try await withService(chainEnvironment((stub, provider))) { client in
                    let answer = try await client.startSession()
                    #expect(answer.source == .model)
                    #expect(answer.prompts.map(\.source) == [.model, .model, .model])
                    #expect(answer.backend == BackendIdentity(provider: provider, model: "stub-\(provider)"))
                }
            }
        }

        @Test(
            "Real models' reply shapes give model prompts on the first call, through every provider's API",
            arguments: httpProviders,
            [StubBehaviour.fencedWithPreamble, .fencedWithSignOff, .boldNumbered, .italicLines, .jsonOtherKey, .jsonObjects]
        )
        func realReplyShapes(provider: String, behaviour: StubBehaviour) async throws {
            try await withStubLLM(behaviour) { stub in
                try await withService(chainEnvironment((stub, provider))) { client in
                    let answer = try await client.startSession()
                    #expect(answer.source == .model)
                    #expect(answer.prompts.count == 3)
                    #expect(await stub.calls == 1, "all six were usable, so nothing was re-asked")
                    // The other three are the session's surplus: the first refresh needs no model call.
                    let refreshed = try await client.refresh(answer.sessionID)
                    #expect(refreshed.lookup["source"].string == "model")
                    #expect(await stub.calls == 1)
                }
            }
        }

        @Test("An Anthropic base URL works with or without a trailing /v1", arguments: ["", "/v1", "/v1/", "/"])
        func anthropicBaseURL(suffix: String) async throws {
            try await withStubLLM { stub in
                var environment = chainEnvironment((stub, "anthropic"))
                environment["LLM_BASE_URL"] = stub.baseURL(for: "anthropic") + suffix
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    // The system message is one text block marked for Anthropic's prompt cache.
                    let body = try JSONSerialization.jsonObject(with: Data(await stub.state.lastRequestBody.utf8)) as? [String: Any]
                    let system = try #require(body?["system"] as? [[String: Any]])
                    #expect(system.count == 1)
                    #expect((system.first?["cache_control"] as? [String: String]) == ["type": "ephemeral"])
                    #expect((system.first?["text"] as? String)?.isEmpty == false)
                }
            }
        }

        @Test(
            "A fault of any kind gives the right reason before the deadline plus 0.5 s",
            arguments: httpProviders,
            [StubBehaviour.serverError, .rateLimited, .garbage, .truncated, .hang, .trickle]
        )
        func faults(provider: String, behaviour: StubBehaviour) async throws {
            try await withStubLLM(behaviour) { stub in
                try await withService(chainEnvironment((stub, provider))) { client in
                    let start = ContinuousClock.now
                    let answer = try await client.startSession()
                    let elapsed = ContinuousClock.now - start
                    let expected: FallbackReason = [.hang, .trickle].contains(behaviour) ? .timeout : .backendError
                    #expect(answer.fallbackReason == expected)
                    #expect(answer.prompts.map(\.text) == productFallbacks)
                    #expect(answer.backend == nil)
                    #expect(elapsed < .milliseconds(1500), "answered after \(elapsed)")
                }
            }
        }

        @Test("A refused connection is backend_error for every provider", arguments: httpProviders)
        func refused(provider: String) async throws {
            let closed = try await withStubLLM { $0 }
            try await withService(chainEnvironment((closed, provider))) { client in
                let answer = try await client.startSession()
                #expect(answer.fallbackReason == .backendError)
            }
        }

        @Test("A host name that does not resolve is backend_error, decided locally without DNS traffic", arguments: httpProviders)
        func dnsFailure(provider: String) async throws {
            // "a..b" has an empty label: the resolver rejects it without sending a query anywhere.
            let environment = testEnvironment(stub: nil).merging([
                "LLM_PROVIDER": provider, "LLM_BASE_URL": "http://a..b/v1", "LLM_MODEL": "m",
            ]) { $1 }
            try await withService(environment) { client in
                let answer = try await client.startSession()
                #expect(answer.fallbackReason == .backendError)
            }
        }

        @Test("The template's model parameters reach each provider in its own words", arguments: httpProviders)
        func parameters(provider: String) async throws {
            try await withStubLLM { stub in
                try await withService(chainEnvironment((stub, provider))) { client in
                    _ = try await client.startSession()
                    let body = await stub.state.lastRequestBody
                    #expect(body.contains(#""temperature":0.3"#))
                    // No max_tokens in settings.json: sized from 8 questions of at most 15 English words.
                    let limit = 8 * (15 * 2 + 4)
                    #expect(body.contains(provider == "ollama" ? #""num_predict":\#(limit)"# : #""max_tokens":\#(limit)"#))
                    #expect(body.contains(#""model":"stub-\#(provider)""#))
                }
            }
        }
    }
}
