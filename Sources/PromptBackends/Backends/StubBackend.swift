import PromptDomain
import StubModel

/// An in-process model that writes photo-aware questions with no network: the default, so `make run` works offline.
public struct StubBackend: LLMBackend {
    /// Always `stub` / `stub-writer-1`.
    public let identity = BackendIdentity(provider: "stub", model: "stub-writer-1")

    public init() {}

    /// The questions, one per line, exactly as a well-behaved model would answer.
    public func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        let questions = StubPromptWriter.questions(system: request.system, user: request.userText)
        // Streamed, it writes one line at a time, as a model would.
        if let observer = ReplyObservation.current {
            for question in questions { observer.received(question + "\n") }
        }
        return LLMReply(text: questions.joined(separator: "\n"), finishReason: .stop)
    }
}
