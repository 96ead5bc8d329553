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

extension SystemTests {
    @Suite("How a reply ended, why a backend failed, and what each call cost")
    struct BackendReplyDetailTests {
        @Test(
            "No text at the token limit (a reasoning model's spent budget) is judged unusable and re-asked, not a transport error",
            arguments: httpProviders
        )
        func emptyReplyIsReasked(provider: String) async throws {
            try await withStubLLM(.reasoningEmpty) { stub in
                var environment = chainEnvironment((stub, provider))
                environment["LLM_TIMEOUT"] = "2"
                try await withService(environment) { client in
                    let answer = try await client.startSession()
                    #expect(answer.fallbackReason == .invalidOutput)
                    #expect(await stub.calls == 2, "asked again with time left")
                }
            }
        }

        @Test("A reply cut at the token limit keeps its complete questions, and its cut last line is not judged", arguments: httpProviders)
        func cutReplyDropsItsLastLine(provider: String) async throws {
            try await withStubLLM(.cutAtLength) { stub in
                let prompts = try TemporaryPrompts()
                let environment = operatorEnvironment(stub: nil, prompts: prompts).merging(stub.backendEnvironment(provider: provider)) { $1 }
                try await withService(environment) { client in
                    let answer = try await client.startSession()
                    #expect(answer.source == .model)
                    #expect(await stub.calls == 1)
                    #expect(!answer.prompts.contains { $0.text.hasPrefix("What made you") })
                    let metrics = try await client.metricsText()
                    #expect(!metrics.contains("photoprompts_rejections_total"), "nothing was rejected: \(metrics)")
                }
            }
        }

        @Test(
            "Backend outcomes in /metrics tell rate limits, auth, bad requests, server errors, timeouts and connections apart",
            arguments: [
                (StubBehaviour.rateLimited, "rate_limited"), (.unauthorized, "auth"), (.badRequest, "bad_request"), (.serverError, "server_error"),
                (.hang, "timeout"),
            ]
        )
        func outcomes(behaviour: StubBehaviour, outcome: String) async throws {
            try await withStubLLM(behaviour) { stub in
                let prompts = try TemporaryPrompts()
                try await withService(operatorEnvironment(stub: stub, prompts: prompts)) { client in
                    #expect(try await client.startSession().source == .fallback)
                    let metrics = try await client.metricsText()
                    #expect(metrics.contains(#"photoprompts_backend_calls_total{backend="openai/stub-model",outcome="\#(outcome)"} 1"#), "\(metrics)")
                }
            }
        }

        @Test("A refused connection is counted as connection")
        func connectionOutcome() async throws {
            let closed = try await withStubLLM { $0 }
            let prompts = try TemporaryPrompts()
            try await withService(operatorEnvironment(stub: closed, prompts: prompts)) { client in
                _ = try await client.startSession()
                #expect(try await client.metricsText().contains(#"outcome="connection"} 1"#))
            }
        }

        @Test(
            "generate prints the provider's error message, shortened and with the key masked",
            arguments: [StubBehaviour.badRequest, .unauthorized]
        )
        func providerMessageIsShown(behaviour: StubBehaviour) async throws {
            try await withStubLLM(behaviour) { stub in
                let (status, output) = try await runGenerate(against: stub)
                #expect(status == 0)
                if behaviour == .badRequest {
                    #expect(output.contains("HTTP 400") && output.contains("Use 'max_completion_tokens' instead"), "\(output)")
                } else {
                    #expect(output.contains("HTTP 401") && output.contains("Incorrect API key provided"), "\(output)")
                    #expect(!output.contains("1234567890abcdef"), "the key is masked: \(output)")
                }
            }
        }

        @Test("Token usage the provider reports shows in /metrics by backend and in /admin/stats per template version", arguments: httpProviders)
        func tokens(provider: String) async throws {
            try await withStubLLM { stub in
                let prompts = try TemporaryPrompts()
                let environment = operatorEnvironment(stub: nil, prompts: prompts).merging(stub.backendEnvironment(provider: provider)) { $1 }
                try await withService(environment) { client in
                    _ = try await client.startSession()
                    _ = try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#)
                    let metrics = try await client.metricsText()
                    let backend = "\(provider)/stub-\(provider)"
                    let prompt = try #require(Self.value(in: metrics, #"photoprompts_backend_tokens_total{backend="\#(backend)",kind="prompt"}"#))
                    let completion = try #require(
                        Self.value(in: metrics, #"photoprompts_backend_tokens_total{backend="\#(backend)",kind="completion"}"#)
                    )
                    #expect(prompt > 100 && completion > 20)
                    let stats = try await client.versionStats()
                    #expect(stats["tokens", "prompt"].int == prompt)
                    #expect(stats["tokens", "completion"].int == completion)
                    #expect(stats["tokens_per_session"].double == Double(prompt + completion) / 2)
                }
            }
        }

        static func value(in metrics: String, _ series: String) -> Int? {
            metrics.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
        }
    }
}
