/// The outcome of validating one reply.
public struct PromptValidation: Sendable, Equatable {
    /// Candidates that passed, in the model's order.
    public var kept: [ValidPrompt] = []
    public var rejected: [PromptRejection] = []
}

extension PromptValidation {
    /// Whether asking the same model again, told what was wrong, is likely to help: it wrote one kept, or one it can
    /// fix (a length, a question mark, a repeat). Otherwise (language, invented words, chatter, placeholders) fallbacks
    /// complete the reply at once: a second call would cost the user its time for the same failure.
    public var suggestsReaskHelps: Bool {
        !kept.isEmpty || rejected.isEmpty || rejected.contains { $0.reason.isFixedByTelling }
    }
}

/// A candidate that failed, and why.
public struct PromptRejection: Sendable, Equatable {
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        case empty
        case multiLine
        case tooShort(words: Int)
        case tooLong(words: Int)
        case duplicate
        case alreadyShown
        /// One of the template's example questions, copied back.
        case copiedExample
        case notAQuestion
        case containsLink
        case blockedWord(String)
        /// In another language: CLD2's code (`pt`), or the letters' script (`Latn`) where CLD2 could not tell.
        case wrongLanguage(String)
        case placeholder
        case assistantChatter
        case twoQuestions
        /// A word neither the language's dictionary nor the photo knows.
        case unknownWord(String)
        /// Repeats itself: a letter, a symbol, a short run or a word, past what a question writes (``RepeatedText``).
        case repetitive
        /// Names a number, a date or a name the photo's metadata does not hold (``PhotoDetails``): the word.
        case unsupportedDetail(String)
        /// A word the model that wrote it found improbable (``TokenLogprobs``): a broken sentence, or a word forced on it.
        case disfluent

        /// A short reason for logs, e.g. "too short at 6 words".
        public var description: String {
            switch self {
            case .empty: "empty"
            case .multiLine: "spans several lines"
            case .tooShort(let words): "too short at \(words) words"
            case .tooLong(let words): "too long at \(words) words"
            case .duplicate: "duplicate"
            case .alreadyShown: "already shown in this session"
            case .copiedExample: "copies an example; write a new question about this photo"
            case .notAQuestion: "not a question"
            case .containsLink: "contains a link or e-mail address"
            case .blockedWord(let word): "uses the blocked word \"\(word)\""
            case .wrongLanguage(let other): "written in \(other), not in the user's language"
            case .placeholder: "has a placeholder in brackets or braces"
            case .assistantChatter: "talks about the conversation, not the photo"
            case .twoQuestions: "asks two questions; ask one"
            case .unknownWord(let word): "uses \"\(word)\", which is not a word"
            case .repetitive: "repeats itself; write one plain question"
            case .unsupportedDetail(let word): "names \"\(word)\", which the photo does not say"
            case .disfluent: "does not read as a sentence; write a plain, whole question"
            }
        }

        /// Whether a model told of this failure can avoid it on a re-ask.
        package var isFixedByTelling: Bool {
            switch self {
            case .wrongLanguage, .unknownWord, .repetitive, .placeholder, .assistantChatter, .disfluent: false
            default: true
            }
        }

        /// A stable name for counting, e.g. in stats: `too_short`, `blocked_word`.
        public var code: String {
            switch self {
            case .empty: "empty"
            case .multiLine: "multi_line"
            case .tooShort: "too_short"
            case .tooLong: "too_long"
            case .duplicate: "duplicate"
            case .alreadyShown: "already_shown"
            case .copiedExample: "copied_example"
            case .notAQuestion: "not_a_question"
            case .containsLink: "contains_link"
            case .blockedWord: "blocked_word"
            case .wrongLanguage: "wrong_language"
            case .placeholder: "placeholder"
            case .assistantChatter: "assistant_chatter"
            case .twoQuestions: "two_questions"
            case .unknownWord: "unknown_word"
            case .repetitive: "repetitive"
            case .unsupportedDetail: "unsupported_detail"
            case .disfluent: "disfluent"
            }
        }
    }

    /// The candidate as the model wrote it.
    public var candidate: String
    public var reason: Reason
}
