import PromptDomain

/// What a streamed request hears from the pipeline before its answer is complete.
public struct GenerationStream: Sendable {
    /// The backends are about to be asked: what happens from here on is the model's time.
    public var modelAsked: @Sendable () -> Void
    /// A good, unseen prompt of the reply being written, in the order the answer will show it.
    public var prompt: @Sendable (ValidPrompt) -> Void

    public init(modelAsked: @escaping @Sendable () -> Void, prompt: @escaping @Sendable (ValidPrompt) -> Void) {
        self.modelAsked = modelAsked
        self.prompt = prompt
    }
}
