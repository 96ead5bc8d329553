import Foundation
import PromptDomain

/// The product's copy in every language shipped, from `prompts/copy/`: one `<tag>.json` per language.
///
/// A user reads the copy of the language their locale matches (``CopyMatching``), and English when none does. It is
/// loaded and checked with the templates, so an edit hot-reloads, and a broken or missing translation is refused
/// like a broken template: the previous copy keeps serving.
public struct CopyCatalog: Sendable, Equatable {
    public static let folder = "copy"

    /// Each language's copy, by its tag in lower case.
    private let byTag: [String: ProductCopy]
    /// The source copy, for locales nothing else matches.
    public let english: ProductCopy

    package init(_ copies: [ProductCopy]) throws(TemplateError) {
        byTag = Dictionary(copies.map { ($0.locale.description.lowercased(), $0) }) { first, _ in first }
        guard let english = byTag["en"] else {
            throw TemplateError(file: "\(Self.folder)/en.json", message: "is missing: English is the source copy, served when no language matches")
        }
        self.english = english
    }

    public func copy(for locale: LanguageTag) -> ProductCopy {
        for candidate in CopyMatching.candidates(for: locale) {
            if let copy = byTag[candidate.lowercased()] { return copy }
        }
        return english
    }

    /// The languages shipped, by tag, for `GET /admin/templates` and the docs.
    public var locales: [String] { byTag.values.map(\.locale.description).sorted() }

    /// Reads every `<tag>.json` in `prompts/copy/`; throws ``TemplateError`` naming the file at fault: a name that is
    /// not a language tag, a broken file, or no `en.json`.
    public static func load(from promptsDirectory: String) throws(TemplateError) -> CopyCatalog {
        let legacy = URL(fileURLWithPath: promptsDirectory).appendingPathComponent("fallbacks.txt").path
        if FileManager.default.fileExists(atPath: legacy) {
            throw TemplateError(
                file: "fallbacks.txt",
                message: "the product's copy has moved to \(folder)/en.json (fallbacks and messages, one file per language); move its lines there"
            )
        }
        let directory = URL(fileURLWithPath: promptsDirectory).appendingPathComponent(folder)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw TemplateError(file: "\(folder)/", message: "cannot be read: the product's copy lives here, one <tag>.json per language")
        }
        var copies: [ProductCopy] = []
        for name in names {
            let file = "\(folder)/\(name)"
            let stem = String(name.dropLast(".json".count))
            guard let tag = LanguageTag(stem), tag.description == stem, !tag.language.isEmpty else {
                let canonical = LanguageTag(stem).map { " (write it \($0).json)" } ?? ""
                throw TemplateError(
                    file: file,
                    message: "the name must be a language tag in canonical form, such as ja.json or zh-Hant.json\(canonical)"
                )
            }
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
                throw TemplateError(file: file, message: "cannot be read")
            }
            copies.append(try ProductCopy.parse(data, locale: tag, file: file))
        }
        return try CopyCatalog(copies)
    }
}
