import Foundation
import PromptBackends
import PromptDomain
import StubLLM

/// stub-llm in process: the model of a router test, the fast layer's twin of the system layer's stub-llm fixture.
///
/// It keeps the same ``StubLLMState`` stub-llm serves from, so a test switches behaviour, latency, failures first and
/// `Retry-After` the same way and counts the same calls; what it writes is stub-llm's writer (``StubReplies``). What it
/// has no socket for, it does the way our HTTP backends report it: a 500, a 429 with its wait, a model that never
/// answers (hang, trickle) is a timeout at the caller's deadline.
final class StubBehaviourBackend: LLMBackend {
    let identity: BackendIdentity
    let state: StubLLMState

    init(_ behaviour: StubBehaviour = .normal, latencyMilliseconds: Int = 0, provider: String = "stub-behaviour", model: String = "in-process") {
        identity = BackendIdentity(provider: provider, model: model)
        state = StubLLMState(behaviour: behaviour, latencyMilliseconds: latencyMilliseconds)
    }

    /// Model calls received.
    var calls: Int { get async { await state.calls } }

    /// What the model was told last: `system: …`, then each message as `role: text`, in order.
    var lastRequestText: String { get async { await state.lastRequestBody } }

    /// Switches behaviour and, if given, latency, the number of calls to fail first, and a 429's `Retry-After`.
    func set(_ behaviour: StubBehaviour, latencyMilliseconds: Int? = nil, failFirst: Int? = nil, retryAfter: String? = nil) async {
        await state.set(behaviour: behaviour, latencyMilliseconds: latencyMilliseconds, failFirst: failFirst, retryAfter: retryAfter)
    }

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        let told = (["system: " + request.system] + request.messages.map { "\($0.role): \($0.content)" }).joined(separator: "\n")
        let (behaviour, latency) = await state.recordCall(body: told, remotePort: nil)
        defer { Task { await state.recordAnswered() } }
        if latency > 0 { try await Task.sleep(for: .milliseconds(latency)) }
        switch behaviour {
        case .serverError:
            throw BackendError.httpStatus(500, detail: "stub-behaviour error_500")
        case .rateLimited:
            throw BackendError.rateLimited(retryAfter: TimeInterval(await state.retryAfter), detail: "stub-behaviour rate_limited")
        case .hang, .trickle:
            try await Task.sleep(for: timeout)
            throw BackendError.timedOut("stub-behaviour \(behaviour.rawValue) past \(timeout)")
        default:
            let user = request.messages.last { $0.role == "user" }?.content ?? ""
            return LLMReply(text: StubReplies.content(for: behaviour, system: request.system, user: user), finishReason: .stop)
        }
    }
}
