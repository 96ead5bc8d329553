import Logging
import PromptDomain
import Synchronization

/// Which optional parameters a backend sends, learned from its refusals and remembered for the process's life.
///
/// Providers differ: OpenAI's reasoning models refuse `max_tokens` (they take `max_completion_tokens`) and any
/// `temperature` but the default; some OpenAI-compatible servers refuse `response_format`. With `auto` a backend
/// starts with the common shape; a 400 naming one of these switches it, the call is made again within the same
/// deadline, and the switch is logged once. An explicit setting (`LLM_STRUCTURED_OUTPUT`, `LLM_MAX_TOKENS_PARAMETER`,
/// `LLM_SEND_TEMPERATURE`) is never changed, so a known model never pays for the first refusal.
///
/// Where the strongest output depends on which server answers (an OpenAI-compatible URL may be llama.cpp, vLLM or
/// OpenAI itself), `auto` starts from the JSON schema every such server takes, and ``learn(strongest:)`` sets what
/// the server said it is, once.
package final class RequestShape: Sendable {
    /// What is sent now.
    package struct Choices: Sendable, Equatable {
        package enum Output: Sendable, Equatable {
            /// A GBNF grammar (``PromptGrammar``).
            case grammar
            /// JSON matching ``PromptListSchema``.
            case jsonSchema
            case plain
        }

        package var output: Output
        /// `max_completion_tokens` instead of `max_tokens`.
        package var maxCompletionTokens: Bool
        /// Send the template's temperature, when it sets one.
        package var temperature: Bool
    }

    private struct State {
        var choices: Choices
        var awaitsServerKind: Bool
    }

    private let state: Mutex<State>
    private let options: BackendOptions
    private let logger: Logger
    private let backend: String

    /// `strongest` is the most the provider may take (`auto` starts there): a JSON schema on Ollama, plain text on
    /// Anthropic; nil where the server must say what it is first (``learn(strongest:)``), the JSON schema till then.
    package init(
        options: BackendOptions,
        backend: BackendIdentity,
        strongest: Choices.Output?,
        logger: Logger = Logger(label: "photo-prompts.backend")
    ) {
        self.options = options
        self.logger = logger
        self.backend = "\(backend.provider)/\(backend.model)"
        let output: Choices.Output =
            switch options.structuredOutput {
            case .auto: strongest ?? .jsonSchema
            case .grammar: .grammar
            case .jsonSchema, .on: .jsonSchema
            case .off: .plain
            }
        let choices = Choices(
            output: output,
            maxCompletionTokens: options.maxTokensParameter == .maxCompletionTokens,
            temperature: options.sendTemperature != .off
        )
        state = Mutex(State(choices: choices, awaitsServerKind: options.structuredOutput == .auto && strongest == nil))
    }

    package var current: Choices { state.withLock { $0.choices } }

    /// Whether `auto` has yet to learn what the server takes: the backend asks it before its first call.
    package var awaitsServerKind: Bool { state.withLock { $0.awaitsServerKind } }

    /// Sets the strongest output the server said it takes, once; a refusal learned meanwhile is kept.
    package func learn(strongest: Choices.Output) {
        let changed = state.withLock { state in
            guard state.awaitsServerKind else { return false }
            state.awaitsServerKind = false
            guard state.choices.output == .jsonSchema, strongest != .jsonSchema else { return false }
            state.choices.output = strongest
            return true
        }
        if changed {
            logger.debug("backend is llama.cpp's server; asking it for a grammar", metadata: ["backend": "\(backend)"])
        }
    }

    /// Changes what is sent after a 400 naming a parameter this backend may adapt; returns whether asking again helps.
    package func adapt(after error: BackendError) -> Bool {
        guard error.isBadRequest else { return false }
        let message = error.detail
        let output = current.output
        let change: (apply: @Sendable (inout Choices) -> Void, what: String)?
        if options.maxTokensParameter == .auto, message.contains("max_tokens") {
            change = ({ $0.maxCompletionTokens = true }, "max_completion_tokens instead of max_tokens")
        } else if options.sendTemperature == .auto, message.contains("temperature") {
            change = ({ $0.temperature = false }, "no temperature")
        } else if options.structuredOutput == .auto, output == .grammar, message.contains("grammar") || message.contains("dry_multiplier") {
            // A server that is not llama.cpp's names the parameter it does not know.
            change = ({ $0.output = .jsonSchema }, "a JSON schema instead of a grammar")
        } else if options.structuredOutput == .auto, output != .plain,
            message.contains("format") || message.contains("json_schema") || message.contains("grammar")
        {
            // "format" covers OpenAI's response_format and Ollama's format.
            change = ({ $0.output = .plain }, "plain text instead of structured output")
        } else {
            change = nil
        }
        guard let change else { return false }
        let changed = state.withLock { state in
            let before = state.choices
            change.apply(&state.choices)
            return state.choices != before
        }
        if changed {
            logger.notice(
                "backend refused a parameter; asking it differently from now on",
                metadata: ["backend": "\(backend)", "now": "\(change.what)"]
            )
        }
        return changed
    }

    /// Runs `call` with the current choices, and again after each refusal that changed them, within `timeout`.
    package func calling(within timeout: Duration, _ call: (Choices, Duration) async throws -> LLMReply) async throws -> LLMReply {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                return try await call(current, deadline - .now)
            } catch let error as BackendError where adapt(after: error) && deadline - .now > .milliseconds(50) {
                continue
            }
        }
    }
}
