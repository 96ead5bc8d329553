import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

extension SystemTests {
    @Suite("Rate limits per user and per client key, and a cap on backend calls in flight")
    struct RateLimitTests {
        @Test("With the backend cap reached, further requests fall back as unavailable at once instead of queueing")
        func backendCap() async throws {
            try await withStubLLM(latencyMilliseconds: 800) { stub in
                var environment = testEnvironment(stub: stub)
                environment["BACKEND_MAX_IN_FLIGHT"] = "2"
                environment["LLM_TIMEOUT"] = "3"
                try await withService(environment) { client in
                    let started = ContinuousClock.now
                    let answers = try await withThrowingTaskGroup(of: (PromptsResponse, Duration).self) { group in
                        for index in 0..<6 {
                            group.addTask {
                                let answer = try await client.startSession(#"{"photo": {"labels": ["photo \#(index)"]}}"#)
                                return (answer, ContinuousClock.now - started)
                            }
                        }
                        return try await group.reduce(into: [(PromptsResponse, Duration)]()) { $0.append($1) }
                    }
                    let served = answers.filter { $0.0.source == .model }
                    let shed = answers.filter { $0.0.fallbackReason == .unavailable }
                    #expect(served.count == 2)
                    #expect(shed.count == 4)
                    #expect(shed.allSatisfy { $0.1 < .milliseconds(600) }, "shed at once, not after waiting for a slot")
                    #expect(await stub.state.maxInFlight <= 2)
                }
            }
        }
    }
}
