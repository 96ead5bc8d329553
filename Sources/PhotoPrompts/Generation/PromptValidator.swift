/// Applies the word rule, the template's checks and the no-repeat rule to a model's candidates.
///
/// A candidate is kept only if, once normalised, it is a single line within its language's word rule (8 to 15
/// words in English) that passes the template's checks and has not appeared earlier in the same reply or in the
/// session.
public struct PromptValidator: Sendable {
    /// How words are counted and how many are allowed, for the request's language.
    public var wordRule: WordRule
    /// The template's extra checks.
    public var checks: PromptChecks

    /// Creates a validator.
    public init(wordRule: WordRule = .english, checks: PromptChecks = PromptChecks()) {
        self.wordRule = wordRule
        self.checks = checks
    }

    /// Judges `candidates`, rejecting those whose repeat key is in `alreadyShown`.
    public func validate(_ candidates: [String], alreadyShown: Set<String> = []) -> PromptValidation {
        var validation = PromptValidation()
        var seen = alreadyShown
        for raw in candidates {
            switch verdict(on: raw, alreadyShown: alreadyShown, seen: seen) {
            case .kept(let prompt, let key):
                seen.insert(key)
                validation.kept.append(prompt)
            case .rejected(let reason):
                validation.rejected.append(.init(candidate: raw, reason: reason))
            }
        }
        return validation
    }

    /// Whether at least one of `candidates` would be kept: the backend chain's test of a usable answer. It stops at
    /// the first that passes, where ``validate(_:alreadyShown:)`` judges them all.
    public func keepsAny(_ candidates: [String]) -> Bool {
        candidates.contains { raw in
            if case .kept = verdict(on: raw, alreadyShown: [], seen: []) { return true }
            return false
        }
    }

    private enum Verdict {
        case kept(ValidPrompt, key: String)
        case rejected(PromptRejection.Reason)
    }

    private func verdict(on raw: String, alreadyShown: Set<String>, seen: Set<String>) -> Verdict {
        if raw.contains(where: \.isNewline) { return .rejected(.multiLine) }
        let text = PromptNormalizer.normalize(raw)
        let words = wordRule.count(text)
        let key = PromptNormalizer.repeatKey(text)
        if let reason = judge(text, words: words, key: key, alreadyShown: alreadyShown, seen: seen) { return .rejected(reason) }
        return .kept(ValidPrompt(text: text, wordCount: words, repeatKey: key), key: key)
    }

    /// The first rule a normalised candidate breaks, in the order the model is best told about them.
    private func judge(_ text: String, words: Int, key: String, alreadyShown: Set<String>, seen: Set<String>) -> PromptRejection.Reason? {
        if words == 0 { return .empty }
        if words < wordRule.range.lowerBound { return .tooShort(words: words) }
        if words > wordRule.range.upperBound { return .tooLong(words: words) }
        if let failure = checks.failure(for: text, repeatKey: key) { return failure }
        if alreadyShown.contains(key) { return .alreadyShown }
        if seen.contains(key) { return .duplicate }
        return nil
    }
}

/// A candidate that passed every rule.
public struct ValidPrompt: Codable, Sendable, Equatable {
    /// The normalised text.
    public let text: String
    /// Its word count.
    public var wordCount: Int
    /// The backend that wrote it; kept with cached and surplus prompts so answers can name it.
    public var answeredBy: BackendIdentity?
    /// The key that identifies repeats of this prompt. Worked out once, here: every cache hit, refresh and stored
    /// round compares or stores it, and recomputing it each time showed up in profiles. Not stored in JSON.
    public let repeatKey: String

    /// Creates a valid prompt.
    public init(text: String, wordCount: Int, answeredBy: BackendIdentity? = nil) {
        self.text = text
        self.wordCount = wordCount
        self.answeredBy = answeredBy
        self.repeatKey = PromptNormalizer.repeatKey(text)
    }

    init(text: String, wordCount: Int, repeatKey: String) {
        self.text = text
        self.wordCount = wordCount
        self.repeatKey = repeatKey
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            text: try container.decode(String.self, forKey: .text),
            wordCount: try container.decode(Int.self, forKey: .wordCount),
            answeredBy: try container.decodeIfPresent(BackendIdentity.self, forKey: .answeredBy)
        )
    }

    private enum CodingKeys: String, CodingKey {
        case text, wordCount, answeredBy
    }
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
        case notAQuestion
        case containsLink
        case blockedWord(String)

        /// A short reason for logs, e.g. "too short at 6 words".
        public var description: String {
            switch self {
            case .empty: "empty"
            case .multiLine: "spans several lines"
            case .tooShort(let words): "too short at \(words) words"
            case .tooLong(let words): "too long at \(words) words"
            case .duplicate: "duplicate"
            case .alreadyShown: "already shown in this session"
            case .notAQuestion: "not a question"
            case .containsLink: "contains a link or e-mail address"
            case .blockedWord(let word): "uses the blocked word \"\(word)\""
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
            case .notAQuestion: "not_a_question"
            case .containsLink: "contains_link"
            case .blockedWord: "blocked_word"
            }
        }
    }

    /// The candidate as the model wrote it.
    public var candidate: String
    /// Why it was rejected.
    public var reason: Reason
}
