import Dispatch
import Logging
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain
import Synchronization
import Testing

@testable import PhotoPrompts

/// A backend stuck where cancellation does not reach (a client library's blocking call): it answers after twenty
/// seconds whatever happens to the task that asked.
private final class DeafBackend: LLMBackend {
    let identity = BackendIdentity(provider: "deaf", model: "stuck")
    /// Whether its call has come back; the chain must answer long before.
    let returned = Mutex(false)

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + 20) { continuation.resume() }
        }
        returned.withLock { $0 = true }
        return LLMReply(text: "What did the evening light feel like on the beach?", finishReason: .stop)
    }
}

@Suite("Failover: a backend's budget is kept even when the backend ignores its cancellation")
struct FailoverDeadlineTests {
    /// Whether the next backend is then asked depends on the time left when the stuck one is abandoned, which a
    /// test run busy with other suites can eat (the deadline's task waits for a thread like any other); the system
    /// tests' hanging primary covers the failover. What this holds is that the stuck call is not waited for.
    @Test("The stuck backend times out at its share of the deadline instead of holding the request for its twenty seconds")
    func stuckBackendIsLeftBehind() async {
        let next = ScriptedBackend(name: "next", replies: [["What made you smile at the beach that evening?"]])
        let deaf = DeafBackend()
        let chain = BackendChain(backends: [deaf, next], failureThreshold: 5, coolDown: 30, clock: SystemWallClock())
        let request = LLMRequest(prompt: RenderedPrompt(system: "s", user: "u"), parameters: ModelParameters())
        let started = ContinuousClock.now
        let (outcome, _) = await chain.complete(request, judgedBy: PromptValidator(), deadline: started + .seconds(1), logger: Logger(label: "test"))
        // The stuck call is still out when the chain answers: it was left, not waited for, however busy the run.
        #expect(!deaf.returned.withLock { $0 }, "the chain answered before the stuck call came back")
        // The chain's promise is its deadline (1 s), which the system tests time. Here the whole fast layer runs
        // beside it, and on CI's two cores it answered in 3.5 s: the bound is half the stuck call's twenty, which a
        // chain that waited for it could not meet.
        #expect(ContinuousClock.now - started < .seconds(10), "answered by the deadline, not when the stuck call ends")
        #expect(outcome.attempts.first?.outcome == "timeout")
    }
}
