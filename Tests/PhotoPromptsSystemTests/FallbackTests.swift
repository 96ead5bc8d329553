import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import StubLLM
import Testing

extension SystemTests {
    @Suite("Fallbacks: the user always gets three prompts and a reason")
    struct FallbackTests {
        @Test(
            "A failing backend gives the fallback copy with reason backend_error",
            arguments: [StubBehaviour.serverError, .rateLimited, .garbage, .truncated]
        )
        func backendErrors(behaviour: StubBehaviour) async throws {
            try await withStubLLM(behaviour) { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let answer = try await client.startSession()
                    #expect(answer.source == .fallback)
                    #expect(answer.fallbackReason == .backendError)
                    #expect(answer.message == "AI couldn't generate prompts. Write your own entry.")
                    #expect(answer.prompts.map(\.text) == productFallbacks)
                    #expect(answer.prompts.map(\.source) == [.fallback, .fallback, .fallback])
                    #expect(await stub.calls == 1)
                }
            }
        }

        @Test("A refused connection gives backend_error")
        func connectionRefused() async throws {
            let closedPort = try await withStubLLM { $0.port }
            var environment = testEnvironment(stub: nil)
            environment["LLM_PROVIDER"] = "openai"
            environment["LLM_BASE_URL"] = "http://127.0.0.1:\(closedPort)/v1"
            environment["LLM_MODEL"] = "m"
            try await withService(environment) { client in
                let answer = try await client.startSession()
                #expect(answer.fallbackReason == .backendError)
                #expect(answer.prompts.map(\.text) == productFallbacks)
            }
        }

        @Test(
            "Gaps are filled from the fallbacks when fewer than three candidates survive and no time is left to re-ask",
            arguments: [StubBehaviour.mixed, .duplicates]
        )
        func partialFill(behaviour: StubBehaviour) async throws {
            // 600 ms of a 1 s deadline: the 400 ms left is less than the backend's usual latency, so no re-ask.
            try await withStubLLM(behaviour, latencyMilliseconds: 600) { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let answer = try await client.startSession()
                    #expect(answer.source == .model)
                    #expect(answer.fallbackReason == nil)
                    #expect(answer.prompts.map(\.source) == [.model, .model, .fallback])
                    #expect(answer.prompts[2].text == productFallbacks[0])
                    for prompt in answer.prompts.prefix(2) {
                        #expect((8...15).contains(WordCounter.count(prompt.text)))
                    }
                    let keys = answer.prompts.map { PromptNormalizer.repeatKey($0.text) }
                    #expect(Set(keys).count == 3)
                    #expect(await stub.calls == 1)
                }
            }
        }
    }
}

extension SystemTests {
    @Suite("The 15 s deadline (1 s in tests): an answer by the timeout plus 0.5 s, whatever the backend does", .serialized)
    struct DeadlineTests {
        @Test("A backend that hangs or trickles gives reason timeout before the deadline passes by 0.5 s", arguments: [StubBehaviour.hang, .trickle])
        func slowBackend(behaviour: StubBehaviour) async throws {
            try await withStubLLM(behaviour) { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let start = ContinuousClock.now
                    let answer = try await client.startSession()
                    let elapsed = ContinuousClock.now - start
                    #expect(answer.source == .fallback)
                    #expect(answer.fallbackReason == .timeout)
                    #expect(answer.message == "Taking longer than expected. Try manual entry?")
                    #expect(answer.prompts.map(\.text) == productFallbacks)
                    #expect(elapsed < .milliseconds(1500), "answered after \(elapsed)")
                    #expect(elapsed >= .milliseconds(900), "gave up early, after \(elapsed)")
                }
            }
        }

        @Test("A backend slower than the timeout times out; one just under it answers")
        func latencyAroundTheDeadline() async throws {
            try await withStubLLM(latencyMilliseconds: 1300) { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let late = try await client.startSession()
                    #expect(late.fallbackReason == .timeout)
                    await stub.set(.normal, latencyMilliseconds: 300)
                    let inTime = try await client.startSession(headers: [("Cache-Control", "no-cache")])
                    #expect(inTime.source == .model)
                }
            }
        }
    }
}
