import StubModel

/// An in-process model that writes photo-aware questions with no network: the default, so `make run` works offline.
public struct StubBackend: LLMBackend {
    /// Always `stub` / `stub-writer-1`.
    public let identity = BackendIdentity(provider: "stub", model: "stub-writer-1")

    /// Creates the stub.
    public init() {}

    /// The questions, one per line, exactly as a well-behaved model would answer.
    public func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        LLMReply(text: StubPromptWriter.questions(system: request.system, user: request.userText).joined(separator: "\n"), finishReason: .stop)
    }
}
