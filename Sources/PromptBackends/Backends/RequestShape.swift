import Logging
import Synchronization

/// Which optional parameters a backend sends, learned from its refusals and remembered for the process's life.
///
/// Providers differ in what they accept: OpenAI's reasoning models refuse `max_tokens` (they take
/// `max_completion_tokens`) and any `temperature` but the default; some OpenAI-compatible servers refuse
/// `response_format`. With `auto` a backend starts with the common shape; a 400 whose message names one of these
/// parameters switches it, the call is made again within the same deadline, and the switch is logged once. An
/// explicit setting (`LLM_STRUCTURED_OUTPUT`, `LLM_MAX_TOKENS_PARAMETER`, `LLM_SEND_TEMPERATURE`) is never changed,
/// so a known model never pays for the first refusal.
package final class RequestShape: Sendable {
    /// What is sent now.
    package struct Choices: Sendable, Equatable {
        /// How the reply's shape is asked for.
        package enum Output: Sendable, Equatable {
            /// A GBNF grammar (``PromptGrammar``).
            case grammar
            /// JSON matching ``PromptListSchema``.
            case jsonSchema
            /// Plain text.
            case plain
        }

        /// How the reply's shape is asked for now.
        package var output: Output
        /// `max_completion_tokens` instead of `max_tokens`.
        package var maxCompletionTokens: Bool
        /// Send the template's temperature, when it sets one.
        package var temperature: Bool
    }

    private let choices: Mutex<Choices>
    private let options: BackendOptions
    private let logger: Logger
    private let backend: String

    /// `strongest` is the most the provider may take (`auto` starts there): a grammar on an OpenAI-compatible server,
    /// a JSON schema on Ollama.
    package init(
        options: BackendOptions,
        backend: BackendIdentity,
        strongest: Choices.Output,
        logger: Logger = Logger(label: "photo-prompts.backend")
    ) {
        self.options = options
        self.logger = logger
        self.backend = "\(backend.provider)/\(backend.model)"
        let output: Choices.Output =
            switch options.structuredOutput {
            case .auto: strongest
            case .grammar: .grammar
            case .jsonSchema, .on: .jsonSchema
            case .off: .plain
            }
        choices = Mutex(
            Choices(
                output: output,
                maxCompletionTokens: options.maxTokensParameter == .maxCompletionTokens,
                temperature: options.sendTemperature != .off
            )
        )
    }

    /// What to send now.
    package var current: Choices { choices.withLock { $0 } }

    /// Changes what is sent after `error`, when it is a 400 naming a parameter this backend may adapt; returns
    /// whether anything changed, i.e. whether asking again can help.
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
        let changed = choices.withLock { choices in
            let before = choices
            change.apply(&choices)
            return choices != before
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
