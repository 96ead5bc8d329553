/// Applies the word rule and the no-repeat rule to a model's candidates.
///
/// A candidate is kept only if, once normalised, it is a single line of 8 to 15 words that has not appeared
/// earlier in the same reply or in the session.
public struct PromptValidator: Sendable {
    /// The allowed word counts, from the product spec.
    public static let defaultWordRange = 8...15

    /// The allowed word counts.
    public var wordRange: ClosedRange<Int>

    /// Creates a validator.
    public init(wordRange: ClosedRange<Int> = Self.defaultWordRange) {
        self.wordRange = wordRange
    }

    /// Judges `candidates`, rejecting those whose repeat key is in `alreadyShown`.
    public func validate(_ candidates: [String], alreadyShown: Set<String> = []) -> PromptValidation {
        var validation = PromptValidation()
        var seen = alreadyShown
        for raw in candidates {
            if raw.contains(where: \.isNewline) {
                validation.rejected.append(.init(candidate: raw, reason: .multiLine))
                continue
            }
            let text = PromptNormalizer.normalize(raw)
            let words = WordCounter.count(text)
            let key = PromptNormalizer.repeatKey(text)
            let reason: PromptRejection.Reason? =
                if words == 0 { .empty } else if words < wordRange.lowerBound { .tooShort(words: words) } else if words > wordRange.upperBound {
                    .tooLong(words: words)
                } else if alreadyShown.contains(key) { .alreadyShown } else if seen.contains(key) { .duplicate } else { nil }
            if let reason {
                validation.rejected.append(.init(candidate: raw, reason: reason))
            } else {
                seen.insert(key)
                validation.kept.append(ValidPrompt(text: text, wordCount: words))
            }
        }
        return validation
    }
}

/// A candidate that passed every rule.
public struct ValidPrompt: Codable, Sendable, Equatable {
    /// The normalised text.
    public var text: String
    /// Its word count.
    public var wordCount: Int
    /// The backend that wrote it; kept with cached and surplus prompts so answers can name it.
    public var answeredBy: BackendIdentity?

    /// Creates a valid prompt.
    public init(text: String, wordCount: Int, answeredBy: BackendIdentity? = nil) {
        self.text = text
        self.wordCount = wordCount
        self.answeredBy = answeredBy
    }

    /// The key that identifies repeats of this prompt.
    public var repeatKey: String { PromptNormalizer.repeatKey(text) }
}

/// The outcome of validating one reply.
public struct PromptValidation: Sendable, Equatable {
    /// Candidates that passed, in the model's order.
    public var kept: [ValidPrompt] = []
    /// Candidates that failed, with the reason.
    public var rejected: [PromptRejection] = []
}

/// A candidate that failed, and why.
public struct PromptRejection: Sendable, Equatable {
    /// Why a candidate was rejected.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        case empty
        case multiLine
        case tooShort(words: Int)
        case tooLong(words: Int)
        case duplicate
        case alreadyShown

        /// A short reason for logs, e.g. "too short at 6 words".
        public var description: String {
            switch self {
            case .empty: "empty"
            case .multiLine: "spans several lines"
            case .tooShort(let words): "too short at \(words) words"
            case .tooLong(let words): "too long at \(words) words"
            case .duplicate: "duplicate"
            case .alreadyShown: "already shown in this session"
            }
        }
    }

    /// The candidate as the model wrote it.
    public var candidate: String
    /// Why it was rejected.
    public var reason: Reason
}
