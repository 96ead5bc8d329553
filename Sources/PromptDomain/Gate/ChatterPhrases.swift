/// Phrases that give a candidate away as talk about the conversation rather than a question about the photo ("the
/// user", "as an AI"), per language, from `prompts/chatter/<language>.txt`. No library knows these, so operators
/// extend the lists from `eval`. One phrase per line; `#` starts a comment; compared on the repeat key, as whole
/// words where the language spaces its words.
public struct ChatterPhrases: Sendable, Equatable {
    /// Each language's phrases as repeat keys, by primary language subtag.
    package let keysByLanguage: [String: [String]]

    /// A short hash of every phrase: part of the cache key, so an edit to a list re-judges what the cache holds.
    package let fingerprint: String

    /// Each language's phrases as UTF-8 keys, bare and space-padded (whole words), worked out once at load.
    private let bare: [String: [[UInt8]]]
    private let padded: [String: [[UInt8]]]

    /// Phrases given in code, by primary language subtag.
    public init(_ phrases: [String: [String]] = [:]) {
        keysByLanguage = phrases.mapValues { $0.map(PromptNormalizer.repeatKey).filter { !$0.isEmpty } }
        bare = keysByLanguage.mapValues { $0.map { Array($0.utf8) } }
        padded = keysByLanguage.mapValues { $0.map { Array(" \($0) ".utf8) } }
        let listed = keysByLanguage.sorted { $0.key < $1.key }.map { "\($0.key)\u{0}\($0.value.joined(separator: "\u{0}"))" }
        fingerprint = String(ContentHash.sha256Hex(listed.joined(separator: "\u{1}")).prefix(12))
    }

    /// The phrases a candidate for `language` is checked against, as UTF-8 (padded where `wholeWords`): its own,
    /// and English's, which small models fall back to whatever they were asked.
    package func patterns(for language: LanguageTag, wholeWords: Bool) -> [[UInt8]] {
        let lists = wholeWords ? padded : bare
        let own = lists[language.language] ?? []
        return language.language == "en" ? own : own + (lists["en"] ?? [])
    }
}
