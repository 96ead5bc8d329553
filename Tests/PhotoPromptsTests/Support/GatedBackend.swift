import PromptBackends
import PromptDomain
import Synchronization

/// A model whose chosen calls answer only once the test opens their gate: a test of what happens while a call is in
/// flight holds the call for exactly as long as it needs, instead of a latency that a busy machine may outrun (the
/// call answers before the second request arrives) or that an idle one makes the test wait for.
///
/// Call n (from 0) answers `replies[n]`, the last reply again after that. Every request is kept, and the order in
/// which calls arrived and answered, so that a test can tell which call started only after another had answered.
final class GatedBackend: LLMBackend {
    /// What the backend saw happen, in order.
    enum Event: Equatable, Sendable {
        case arrived(Int)
        case answered(Int)
    }

    private struct State {
        var requests: [LLMRequest] = []
        var events: [Event] = []
        var isOpen = false
        var nextWaiter = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    let identity: BackendIdentity
    private let replies: [[String]]
    private let gated: Set<Int>
    private let state = Mutex(State())

    /// A backend whose calls numbered in `gated` (from 0) wait for ``open()``.
    init(name: String = "m", replies: [[String]], gated: Set<Int>) {
        identity = BackendIdentity(provider: "scripted", model: name)
        self.replies = replies
        self.gated = gated
    }

    /// Calls received, answered or not.
    var calls: Int { state.withLock { $0.requests.count } }
    /// Every request received, in order.
    var received: [LLMRequest] { state.withLock { $0.requests } }
    /// Arrivals and answers, in the order they happened.
    var events: [Event] { state.withLock { $0.events } }

    /// The calls that arrived after `call` did and before it answered (all after it, if it never answered).
    func arrivals(while call: Int) -> [Int] {
        let events = self.events
        guard let start = events.firstIndex(of: .arrived(call)) else { return [] }
        let end = events.firstIndex(of: .answered(call)) ?? events.endIndex
        return events[start..<end].compactMap { event in
            if case .arrived(let other) = event, other != call { other } else { nil }
        }
    }

    /// Lets every held call answer, and every gated call after this answer at once.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        let call = state.withLock { state in
            state.requests.append(request)
            state.events.append(.arrived(state.requests.count - 1))
            return state.requests.count - 1
        }
        if gated.contains(call) { try await waitForTheGate() }
        let lines = replies.isEmpty ? [] : replies[min(call, replies.count - 1)]
        for line in lines { request.observer?.received(line + "\n", logprobs: nil) }
        state.withLock { $0.events.append(.answered(call)) }
        return LLMReply(text: lines.joined(separator: "\n"), finishReason: .stop)
    }

    /// Returns when the gate opens; throws when the caller is cancelled first (its deadline passed, its client left).
    private func waitForTheGate() async throws {
        let waiter = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Under the lock, so that neither an `open()` nor a cancellation can slip between the check and the
                // wait: the cancellation flag is set before the handler runs, and the handler takes the same lock.
                let now = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiting[waiter] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: waiter) }?.resume()
        }
        try Task.checkCancellation()
    }
}
