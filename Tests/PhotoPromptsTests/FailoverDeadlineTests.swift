import Dispatch
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain
import Synchronization
import Testing

/// A backend stuck where cancellation does not reach (a client library's blocking call): it answers after twenty
/// seconds whatever happens to the task that asked.
private final class DeafBackend: LLMBackend {
    let identity = BackendIdentity(provider: "deaf", model: "stuck")
    /// Whether its call has come back; the client must be answered long before.
    let returned = Mutex(false)

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + 20) { continuation.resume() }
        }
        returned.withLock { $0 = true }
        return LLMReply(text: "What did the evening light feel like on the beach?", finishReason: .stop)
    }
}

/// A backend that overruns the timeout it is given but ends when cancelled, as a libcurl transfer does.
private struct OverrunningBackend: LLMBackend {
    let identity = BackendIdentity(provider: "slow", model: "overrun")

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        try await Task.sleep(for: .seconds(60))
        return LLMReply(text: "What did the evening light feel like on the beach?", finishReason: .stop)
    }
}

/// The chain calls a backend as a child of the request's task, so a backend that ignores its cancellation holds the
/// chain; the controller's edge (`answer(by:)`) is what keeps the client's deadline then.
@Suite("A backend that ignores its cancellation cannot hold the client past the request's deadline")
struct FailoverDeadlineTests {
    @Test("The client gets 503 with Retry-After by LLM_TIMEOUT and the store's margin, while the stuck call is still out")
    func stuckBackendIsLeftBehind() async throws {
        let deaf = DeafBackend()
        var environment = baseEnvironment()
        environment["LLM_TIMEOUT"] = "1"
        try await withRouterService(environment, backends: [deaf]) { client in
            let started = ContinuousClock.now
            let reply = try await client.post("/v1/prompts", json: samplePhotoRequest)
            #expect(reply.status == 503)
            #expect(reply.headers["retry-after"] != nil)
            #expect(!deaf.returned.withLock { $0 }, "answered before the stuck call came back")
            // The promise is LLM_TIMEOUT + 1 s, which the system tests time. Here the whole fast layer runs beside
            // it on CI's two cores: the bound is half the stuck call's twenty, which waiting for it could not meet.
            #expect(ContinuousClock.now - started < .seconds(10), "answered by the deadline, not when the stuck call ends")
        }
    }

    @Test("A backend that overruns its timeout is cancelled at its share of the deadline, and the next backend answers")
    func overrunIsCutAtItsShare() async throws {
        let next = ScriptedBackend(name: "next", replies: [["What made you smile at the beach that evening?"]])
        // The next backend's third is 3.3 s: time enough on a machine the whole fast layer loads.
        var environment = baseEnvironment()
        environment["LLM_TIMEOUT"] = "10"
        try await withRouterService(environment, backends: [OverrunningBackend(), next]) { client in
            let answer = try await client.startSession()
            #expect(answer.source == .model)
            #expect(answer.backend == next.identity, "the next backend had the third of LLM_TIMEOUT left to it")
        }
    }
}
