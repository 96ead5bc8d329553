/// Words a language's dictionary lacks but people write, per language, from `prompts/words/<language>.txt`: the
/// gate's real-word check takes them as known.
///
/// Debian's Hindi dictionary knows no English loanword written in Devanagari, yet Hindi speakers write them all the
/// time ("सेल्फ़ी", "वीकेंड", "सनसेट"): a good question with two of them failed as `unknown_word`. Operators extend
/// the lists as `eval` shows such words. One word per line; `#` starts a comment; compared lower-cased.
public struct KnownWords: Sendable, Equatable {
    /// Each language's words, lower-cased, by primary language subtag.
    package let wordsByLanguage: [String: Set<String>]

    /// A short hash of every word: part of the cache key, so an edit to a list re-judges what the cache holds.
    package let fingerprint: String

    /// The words of `lists`, one file per language; their fingerprint is the lists'.
    public init(_ lists: LanguageLists = LanguageLists()) {
        wordsByLanguage = lists.linesByLanguage.mapValues { Set($0.map { $0.lowercased() }) }
        fingerprint = lists.fingerprint
    }

    /// The words a candidate for `language` may use beyond its dictionary.
    package func words(for language: LanguageTag) -> Set<String> {
        wordsByLanguage[language.language] ?? []
    }
}
