/// What people write, per language, that the gate's real-word check weighs its dictionary against: words it lacks
/// (`prompts/words/<language>.txt`), taken as known, and good questions (`prompts/good/<tag>.txt`) that measure its
/// coverage (``DictionaryCoverage``). Debian's Hindi dictionary knows no Devanagari English loanword ("सेल्फ़ी"),
/// yet Hindi speakers write them all the time. One word per line; `#` starts a comment; compared lower-cased.
public struct KnownWords: Sendable, Equatable {
    /// Each language's words, lower-cased, by primary language subtag.
    package let wordsByLanguage: [String: Set<String>]

    /// Each language's good questions, by primary language subtag.
    package let goodQuestions: [String: [String]]

    /// A short hash of every word and question: part of the cache key, so an edit to a list re-judges what the cache
    /// holds, and of the coverage's memory, so it is measured again.
    package let fingerprint: String

    public init(_ lists: LanguageLists = LanguageLists(), good: LanguageLists = LanguageLists()) {
        wordsByLanguage = lists.linesByLanguage.mapValues { Set($0.map { $0.lowercased() }) }
        goodQuestions = good.linesByLanguage
        fingerprint = lists.fingerprint + good.fingerprint
    }

    /// The words a candidate for `language` may use beyond its dictionary.
    package func words(for language: LanguageTag) -> Set<String> {
        wordsByLanguage[language.language] ?? []
    }
}
