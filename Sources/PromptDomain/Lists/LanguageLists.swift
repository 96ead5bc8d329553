import Foundation

/// Lines of text per language, one file per language tag in a folder of `prompts/`: the gate's chatter phrases
/// (`chatter/en.txt`) and the example questions templates may show the model (`examples/zh-Hant.txt`).
///
/// One entry per line; blank lines and lines starting with `#` are skipped. Files are named by a BCP 47 tag in
/// canonical form, and looked up the way the product's copy is (``CopyMatching``): `zh-TW` reads `zh-Hant.txt`.
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

    /// Reads every `<tag>.txt` in `prompts/<folder>`; no folder means no lists.
    public static func load(_ folder: String, from promptsDirectory: String) throws(TemplateError) -> LanguageLists {
        let url = URL(fileURLWithPath: promptsDirectory).appendingPathComponent(folder)
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return LanguageLists() }
        var lines: [String: [String]] = [:]
        for file in files.sorted() where file.hasSuffix(".txt") {
            let name = String(file.dropLast(4))
            guard let tag = LanguageTag(name), tag.description == name, !tag.language.isEmpty else {
                throw TemplateError(
                    file: "\(folder)/\(file)",
                    message: "must be named after a language tag in canonical form, such as en.txt or zh-Hant.txt"
                )
            }
            let text: String
            do {
                text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
            } catch {
                throw TemplateError(file: "\(folder)/\(file)", message: "cannot be read (\(error.localizedDescription))")
            }
            lines[name] = text.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        return LanguageLists(lines)
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
