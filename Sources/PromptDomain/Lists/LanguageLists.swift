/// Lines of text per language, one file per language tag in a folder of `prompts/`: the gate's chatter phrases
/// (`chatter/en.txt`), the example questions templates may show (`examples/zh-Hant.txt`). One entry per line; blank
/// and `#` lines skipped. Files are named by canonical BCP 47 tag and looked up as the product's copy is
/// (``CopyMatching``): `zh-TW` reads `zh-Hant.txt`.
public struct LanguageLists: Sendable, Equatable {
    /// The lines of each file, by its tag, lower-cased.
    package let linesByTag: [String: [String]]

    /// A short hash of every line of every file, for the cache key.
    package let fingerprint: String

    /// Lists given in code, by tag.
    public init(_ lines: [String: [String]] = [:]) {
        linesByTag = Dictionary(lines.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        let listed = linesByTag.sorted { $0.key < $1.key }.map { "\($0.key)\u{0}\($0.value.joined(separator: "\u{0}"))" }
        fingerprint = String(ContentHash.sha256Hex(listed.joined(separator: "\u{1}")).prefix(12))
    }

    /// The lines for `language`: the most specific file that matches it, none when no file does.
    public func lines(for language: LanguageTag) -> [String] {
        CopyMatching.candidates(for: language).lazy.compactMap { linesByTag[$0.lowercased()] }.first ?? []
    }

    /// Every file's lines, by primary language subtag, for lists that apply to the whole language.
    package var linesByLanguage: [String: [String]] {
        linesByTag.reduce(into: [:]) { result, entry in
            result[String(entry.key.prefix { $0 != "-" }), default: []] += entry.value
        }
    }
}
