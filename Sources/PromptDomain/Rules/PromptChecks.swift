/// The checks a template adds to the word rule, from its `settings.json`.
///
/// Operators turn them on when a model drifts: statements instead of questions, links, or topics the product
/// must never raise. Each failure is a rejection reason the model is told about on a re-ask.
public struct PromptChecks: Sendable, Equatable {
    /// Keep only prompts that end with a question mark of their script (``QuestionMarks``).
    public let mustEndWithQuestionMark: Bool
    /// Reject prompts that contain a URL or an e-mail address.
    public let rejectsLinks: Bool
    /// Reject prompts containing any of these words or phrases (case-insensitive, whole words).
    public let blockedWords: [String]

    /// Creates checks; by default only links are refused.
    public init(mustEndWithQuestionMark: Bool = false, rejectsLinks: Bool = true, blockedWords: [String] = []) {
        self.mustEndWithQuestionMark = mustEndWithQuestionMark
        self.rejectsLinks = rejectsLinks
        self.blockedWords = blockedWords
        self.blockedKeys = blockedWords.map { PromptNormalizer.repeatKey($0).split(separator: " ").map(String.init) }
    }

    /// Each blocked word or phrase as the words of its repeat key, so "Diet!" in a prompt matches "diet" in the
    /// list. A phrase whose key is empty has no words and never matches.
    private let blockedKeys: [[String]]

    package func failure(for line: LineAnalysis) -> PromptRejection.Reason? {
        if mustEndWithQuestionMark, !QuestionMarks.endsQuestion(line.text) { return .notAQuestion }
        if rejectsLinks, line.mayHoldLink, Self.containsLink(line.text) { return .containsLink }
        if !blockedKeys.isEmpty {
            // Whole words, compared on the repeat key, so "Diet!" matches "diet" and "dietary" does not.
            if let index = blockedKeys.firstIndex(where: { Self.contains(line.keyWords, phrase: $0) }) {
                return .blockedWord(blockedWords[index])
            }
        }
        return nil
    }

    /// Whether `phrase` appears in `words` as consecutive words.
    private static func contains(_ words: [Substring], phrase: [String]) -> Bool {
        guard !phrase.isEmpty, phrase.count <= words.count else { return false }
        return (0...(words.count - phrase.count)).contains { start in
            phrase.indices.allSatisfy { words[start + $0] == phrase[$0] }
        }
    }

    package static func containsLink(_ text: String) -> Bool {
        // Every link below has ".", "@" or ":"; most questions have none and skip the word walk (docs/BENCHMARKS.md).
        guard text.contains(where: { $0 == "." || $0 == "@" || $0 == ":" }) else { return false }
        for token in text.split(whereSeparator: \.isWhitespace) {
            let word = token.lowercased().trimmingCharacters(in: .punctuationCharacters)
            if word.contains("://") || word.hasPrefix("www.") { return true }
            // name@host.tld
            if let at = word.firstIndex(of: "@"), at != word.startIndex, word[word.index(after: at)...].contains(".") { return true }
            // example.com, photos.example.org/path
            let host = word.split(separator: "/").first.map(String.init) ?? word
            let parts = host.split(separator: ".")
            if parts.count >= 2, let tld = parts.last, Self.topLevelDomains.contains(String(tld)), parts.allSatisfy({ !$0.isEmpty }) {
                return true
            }
        }
        return false
    }

    /// Enough top-level domains to catch what models actually write, without flagging "e.g." or "3.5".
    package static let topLevelDomains: Set<String> = [
        "com", "org", "net", "io", "co", "ai", "app", "dev", "info", "me", "ly", "gl", "uk", "de", "fr", "es", "it", "nl", "pt",
    ]
}
