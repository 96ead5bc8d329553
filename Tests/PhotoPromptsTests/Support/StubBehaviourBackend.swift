import PromptBackends
import PromptDomain
import StubLLM
import Synchronization

/// stub-llm's replies in process: the model of a router test that needs what the stub writes in one of its
/// behaviours (lists, bullets, JSON, too short, too long, echo), or a 500, without a socket. Its behaviour can change
/// between requests, like stub-llm's control endpoint; each request is kept.
final class StubBehaviourBackend: LLMBackend {
    let identity = BackendIdentity(provider: "stub-behaviour", model: "in-process")
    private let behaviour: Mutex<StubBehaviour>
    private let requests = Mutex<[LLMRequest]>([])

    init(_ behaviour: StubBehaviour = .normal) {
        self.behaviour = Mutex(behaviour)
    }

    func set(_ behaviour: StubBehaviour) { self.behaviour.withLock { $0 = behaviour } }

    var calls: Int { requests.withLock { $0.count } }
    var lastRequest: LLMRequest? { requests.withLock { $0.last } }

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        requests.withLock { $0.append(request) }
        let behaviour = self.behaviour.withLock { $0 }
        if behaviour == .serverError { throw BackendError.httpStatus(500, detail: "stub-behaviour error_500") }
        let user = request.messages.last { $0.role == "user" }?.content ?? ""
        return LLMReply(text: StubReplies.content(for: behaviour, system: request.system, user: user), finishReason: .stop)
    }
}
