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
    @Suite("A chain of backends within one deadline")
    struct BackendChainTests {
        @Test("Primary hangs, secondary answers: the answer comes before the deadline and names the secondary", .tags(.slow))
        func failover() async throws {
            try await withStubLLM(.hang) { primary in
                try await withStubLLM { secondary in
                    var environment = chainEnvironment((primary, "openai"), (secondary, "ollama"))
                    // 3 s, not the suite's usual 1 s: the primary may use 2 s, and the margin must survive a loaded CI machine.
                    environment["LLM_TIMEOUT"] = "3"
                    try await withService(environment) { client in
                        let start = ContinuousClock.now
                        let answer = try await client.startSession()
                        let elapsed = ContinuousClock.now - start
                        #expect(answer.source == .model)
                        #expect(answer.backend?.provider == "ollama")
                        #expect(elapsed < .seconds(3), "answered after \(elapsed), past the deadline")
                        #expect(elapsed >= .milliseconds(1900), "the primary should have had two thirds of the deadline")
                        #expect(await primary.calls == 1)
                        #expect(await secondary.calls == 1)
                    }
                }
            }
        }

        @Test(
            "A Retry-After is honoured up to BACKEND_RETRY_AFTER_MAX, in seconds or as an HTTP date, so one odd header cannot shut a backend out",
            arguments: [
                (header: "86400000", maximum: nil as String?, honoured: 120.0),
                (header: "Fri, 31 Dec 2099 23:59:59 GMT", maximum: nil, honoured: 120),
                (header: "86400000", maximum: "10", honoured: 10),
                (header: "30", maximum: nil, honoured: 30),
            ]
        )
        func retryAfterIsCapped(header: String, maximum: String?, honoured: Double) async throws {
            let clock = ManualWallClock()
            try await withStubLLM(.rateLimited) { stub in
                await stub.set(.rateLimited, retryAfter: header)
                var environment = testEnvironment(stub: stub)
                environment["BACKEND_RETRY_AFTER_MAX"] = maximum
                try await withService(environment, clock: clock) { (client: ServiceClient) async throws in
                    let noCache = [(name: "Cache-Control", value: "no-cache")]
                    #expect(try await client.startSession(headers: noCache).source == .fallback)
                    await stub.set(.normal)
                    clock.advance(by: honoured - 1)
                    #expect(try await client.startSession(headers: noCache).fallbackReason == .unavailable, "still waiting")
                    #expect(await stub.calls == 1)
                    clock.advance(by: 2)
                    #expect(try await client.startSession(headers: noCache).source == .model, "the wait is over")
                    #expect(await stub.calls == 2)
                    #expect(try await client.send("GET", "/readyz").status == 200)
                }
            }
        }

        @Test("stub-llm can fail only its first N calls")
        func failFirst() async throws {
            try await withStubLLM { stub in
                await stub.set(.normal, failFirst: 2)
                try await withService(testEnvironment(stub: stub)) { client in
                    let answers = [try await client.startSession(), try await client.startSession(), try await client.startSession()]
                    #expect(answers.map(\.fallbackReason) == [.backendError, .backendError, nil])
                    #expect(answers[2].source == .model)
                }
            }
        }
    }
}
