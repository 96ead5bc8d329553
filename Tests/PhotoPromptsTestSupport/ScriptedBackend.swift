import PhotoPrompts
import PromptBackends
import PromptDomain
import Synchronization

/// A model whose replies a test writes: it streams each reply's lines, one at a time, to the request's observer,
/// then answers with them (or fails after streaming). Call n gets `replies[n]`, the last reply again after that (no
/// replies: an empty answer);
/// each request is kept. A request that `holds` picks is not answered until it is cancelled: a slow model, for the
/// tests of what happens while a call is in flight. `latency` delays every answer, so that a second request can join
/// a call in flight.
package final class ScriptedBackend: LLMBackend {
    package let identity: BackendIdentity
    private let replies: [[String]]
    private let failing: Bool
    private let usage: TokenUsage?
    /// The log-probabilities of a line's tokens (the line with its line break), as a model that reports them sends.
    private let scoring: (@Sendable (String) -> TokenLogprobs)?
    private let holds: @Sendable (LLMRequest) -> Bool
    private let latency: Duration
    private let requests = Mutex<[LLMRequest]>([])
    private let cancelled = Mutex(0)

    package init(
        name: String,
        replies: [[String]],
        thenFails failing: Bool = false,
        usage: TokenUsage? = nil,
        latency: Duration = .zero,
        scoring: (@Sendable (String) -> TokenLogprobs)? = nil,
        holds: @escaping @Sendable (LLMRequest) -> Bool = { _ in false }
    ) {
        self.scoring = scoring
        self.latency = latency
        identity = BackendIdentity(provider: "scripted", model: name)
        self.replies = replies
        self.failing = failing
        self.usage = usage
        self.holds = holds
    }

    package convenience init(name: String, streams lines: [String], thenFails failing: Bool) {
        self.init(name: name, replies: [lines], thenFails: failing)
    }

    /// Calls received, answered or not.
    package var calls: Int { requests.withLock { $0.count } }
    /// Every request received, in order.
    package var received: [LLMRequest] { requests.withLock { $0 } }
    /// Held calls that ended because their task was cancelled.
    package var cancellations: Int { cancelled.withLock { $0 } }

    package func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        let call = requests.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        if holds(request) {
            do {
                try await Task.sleep(for: timeout)
            } catch {
                cancelled.withLock { $0 += 1 }
                throw error
            }
            throw BackendError.timedOut("held past \(timeout)")
        }
        if latency > .zero { try await Task.sleep(for: latency) }
        // No replies written: the model answers with nothing, as one that wrote no questions would.
        let lines = replies.isEmpty ? [] : replies[min(call, replies.count - 1)]
        let scored = lines.map { line in scoring?(line + "\n") }
        for (line, logprobs) in zip(lines, scored) { request.observer?.received(line + "\n", logprobs: logprobs) }
        if failing { throw BackendError.httpStatus(500, detail: "scripted failure after streaming") }
        let logprobs = scoring == nil ? nil : scored.reduce(into: TokenLogprobs()) { $0.append(contentsOf: $1 ?? TokenLogprobs()) }
        return LLMReply(text: lines.joined(separator: "\n"), finishReason: .stop, usage: usage, logprobs: logprobs)
    }
}
