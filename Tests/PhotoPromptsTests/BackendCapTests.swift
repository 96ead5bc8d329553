import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

@Suite("A cap on backend calls in flight")
struct BackendCapTests {
    @Test("With the backend cap reached, further requests fall back as unavailable at once instead of queueing")
    func backendCap() async throws {
        let stub = StubBehaviourBackend(latencyMilliseconds: 800)
        var environment = baseEnvironment()
        environment["BACKEND_MAX_IN_FLIGHT"] = "2"
        try await withRouterService(environment, backends: [stub]) { client in
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
            let firstServed = try #require(served.map(\.1).min())
            #expect(shed.allSatisfy { $0.1 < firstServed }, "shed at once, not after waiting for a slot")
            #expect(await stub.state.maxInFlight <= 2)
        }
    }
}
