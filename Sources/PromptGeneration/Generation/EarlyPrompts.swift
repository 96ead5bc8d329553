import PromptBackends
import PromptDomain
import PromptTemplates
import Synchronization

/// Finds a streamed reply's good prompts as its lines complete, and hands each on at once, up to three.
///
/// At every completed line it runs the whole-reply extractor and the validator over the reply so far, so a prompt
/// handed on is one the finished reply would keep too (the extractor test checks this on every corpus reply). A
/// prompt handed on is never taken back: a later call (a failover, a re-ask) avoids it, and the answer shows it first.
package final class EarlyPrompts: ReplyObserver {
    private struct State {
        /// The current call's text so far.
        var text = ""
        /// Its tokens' log-probabilities, where the provider sends them.
        var logprobs = TokenLogprobs()
        var shown: [ValidPrompt] = []
        /// The backend of the current call: a prompt shown is named with the backend that wrote it, even when that
        /// call fails after it (a stream cut at the deadline keeps what it showed).
        var backend: BackendIdentity?
    }

    private let state = Mutex(State())
    private let validator: PromptValidator
    /// What the user has seen: a prompt that repeats it, or one handed on already, exactly or nearly, is not handed on.
    private let seen: SeenPrompts
    private let onPrompt: @Sendable (ValidPrompt) -> Void

    package init(validator: PromptValidator, seen: SeenPrompts, onPrompt: @escaping @Sendable (ValidPrompt) -> Void) {
        self.validator = validator
        self.seen = seen
        self.onPrompt = onPrompt
    }

    package var shown: [ValidPrompt] { state.withLock { $0.shown } }

    /// `kept` with the prompts handed on so far first, in the order they went out, and not again after.
    package func leading(_ kept: [ValidPrompt]) -> [ValidPrompt] {
        let shown = self.shown
        let shownKeys = Set(shown.map(\.repeatKey))
        return shown + kept.filter { !shownKeys.contains($0.repeatKey) }
    }

    package func callStarted(by backend: BackendIdentity) {
        state.withLock {
            $0.text = ""
            $0.logprobs = TokenLogprobs()
            $0.backend = backend
        }
    }

    package func received(_ text: String, logprobs: TokenLogprobs?) {
        let found = state.withLock { state -> [ValidPrompt] in
            state.text += text
            if let logprobs { state.logprobs.append(contentsOf: logprobs) }
            guard text.contains(where: \.isNewline), state.shown.count < ProductSpec.promptsPerAnswer,
                let lastBreak = state.text.lastIndex(where: \.isNewline)
            else { return [] }
            let complete = String(state.text[..<lastBreak])
            var avoid = seen
            avoid.insert(state.shown)
            // A card the month holds is shown last, so it is never streamed ahead of the rest.
            let judged = validator.validate(ReplyExtractor.candidates(in: complete), in: state.logprobs.isEmpty ? nil : (complete, state.logprobs))
            let new = avoid.fresh(judged.kept)
                .filter { !seen.holdsFrame($0) }
                .prefix(ProductSpec.promptsPerAnswer - state.shown.count)
                .map { prompt in
                    var prompt = prompt
                    prompt.answeredBy = state.backend
                    return prompt
                }
            state.shown += new
            return Array(new)
        }
        for prompt in found { onPrompt(prompt) }
    }
}
