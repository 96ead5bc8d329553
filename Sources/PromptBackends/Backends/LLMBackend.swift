import PromptDomain

/// A language model that turns a rendered prompt into a reply.
///
/// Implementations: ``OpenAIBackend``, ``AnthropicBackend`` and ``OllamaBackend`` over ``HTTPTransport``, and the
/// app's `StubBackend` (in process, deterministic). The pipeline never sees HTTP; it sees a reply or a ``BackendError``.
public protocol LLMBackend: Sendable {
    /// The provider and model, part of every cache key.
    var identity: BackendIdentity { get }

    /// Asks the model for a reply, giving up after `timeout`. A reply with no text is a reply (the pipeline judges
    /// it as unusable and may ask again), not an error.
    /// - Throws: ``BackendError`` when no reply arrived; `CancellationError` when the task was cancelled.
    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply
}
