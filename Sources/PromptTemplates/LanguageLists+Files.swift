import Foundation
import PromptDomain

// The gate's per-language lists are the domain's; this layer reads them from `prompts/`: the domain does no file I/O.

extension LanguageLists {
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
            lines[name] = text.split(whereSeparator: \.isNewline).map(\.trimmingSpaces)
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        return LanguageLists(lines)
    }
}

extension KnownWords {
    /// Reads every `<language>.txt` in `prompts/words` and `<tag>.txt` in `prompts/good`; no folder means no list.
    public static func load(from promptsDirectory: String) throws(TemplateError) -> KnownWords {
        KnownWords(try LanguageLists.load("words", from: promptsDirectory), good: try LanguageLists.load("good", from: promptsDirectory))
    }
}

extension ChatterPhrases {
    /// Reads every `<language>.txt` in `prompts/chatter`; no folder means no phrases.
    public static func load(from promptsDirectory: String) throws(TemplateError) -> ChatterPhrases {
        ChatterPhrases(try LanguageLists.load("chatter", from: promptsDirectory).linesByLanguage)
    }
}

extension Angles.Catalog {
    /// Reads every `<tag>.txt` in `prompts/angles`, keeping the angles `names` lists when it is given.
    public static func load(from promptsDirectory: String, only names: [String]?) throws(TemplateError) -> Angles.Catalog {
        let lists = try LanguageLists.load("angles", from: promptsDirectory)
        do {
            return try Angles.Catalog(lists, only: names)
        } catch {
            throw TemplateError(file: "angles/\(LanguageTag(locale: error.tag)).txt", message: "“\(error.line)” \(error.problem)")
        }
    }
}
