import PromptDomain
import Synchronization

/// What a streamed request hears from a session before its answer is complete.
public struct SessionStream: Sendable {
    /// The model is about to be asked: every client error has been ruled out by now.
    public var modelAsked: @Sendable () -> Void
    /// A prompt of the answer, at its position, as soon as it is known good and unseen; the answer shows the same.
    public var prompt: @Sendable (Prompt, _ position: Int) -> Void

    public init(modelAsked: @escaping @Sendable () -> Void, prompt: @escaping @Sendable (Prompt, _ position: Int) -> Void) {
        self.modelAsked = modelAsked
        self.prompt = prompt
    }
}

/// The prompts a session has streamed for one answer: each gets its id when it is sent, and the answer keeps it.
package final class StreamedPrompts: Sendable {
    private let sent = Mutex<[Prompt]>([])
    private let stream: SessionStream

    package init(_ stream: SessionStream) { self.stream = stream }

    /// The pipeline's side of the stream.
    package var generationStream: GenerationStream {
        GenerationStream(modelAsked: stream.modelAsked) { [self] valid in
            let (prompt, position) = self.sent.withLock { sent in
                let prompt = Prompt(
                    id: RandomIdentifier.makeTimeOrdered(prefix: "p_"),
                    text: valid.text,
                    wordCount: valid.wordCount,
                    source: .model,
                    repeatKey: valid.repeatKey
                )
                sent.append(prompt)
                return (prompt, sent.count - 1)
            }
            self.stream.prompt(prompt, position)
        }
    }

    /// `draft` with the ids of the prompts already sent, so the answer names each one as the stream did.
    package func keepingIDs(of draft: SessionRound) -> SessionRound {
        let byText = Dictionary(sent.withLock { $0 }.map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })
        var draft = draft
        draft.prompts = draft.prompts.map { prompt in
            guard prompt.source != .fallback, let sent = byText[prompt.text] else { return prompt }
            var prompt = prompt
            prompt.id = sent.id
            return prompt
        }
        return draft
    }
}
