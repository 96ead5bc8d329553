import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

@testable import PhotoPrompts

@Suite("Locales are BCP 47 language tags, matched to the copy shipped")
struct LanguageTagTests {
    @Test(
        "Well-formed tags are kept in canonical case, with - between subtags",
        arguments: [
            ("en_US", "en-US"), ("EN-us", "en-US"), ("zh_hant_tw", "zh-Hant-TW"), ("sr-latn-rs", "sr-Latn-RS"), ("es-419", "es-419"),
            ("de-CH-1996", "de-CH-1996"), ("tlh", "tlh"), ("x-Private", "x-private"), ("en-US-u-CA-buddhist", "en-US-u-ca-buddhist"),
            ("zh-yue-HK", "zh-yue-HK"), ("en-a-bbb-x-a-Y", "en-a-bbb-x-a-y"),
        ]
    )
    func canonical(text: String, expected: String) throws {
        #expect(try #require(LanguageTag(text)).description == expected)
    }

    @Test(
        "Anything else is not a tag",
        arguments: [
            "<script>", "", "en-", "-en", "en--US", "e", "i-klingon", "en-US-", "english language", "ja‐JP", "en-US.UTF-8", "x", "en-a",
            "en-a-x-y", "abc-def-ghi-jkl-mno", "en-US-123", String(repeating: "a", count: 9), "en-" + String(repeating: "abcdefgh-", count: 4),
        ]
    )
    func malformed(text: String) {
        #expect(LanguageTag(text) == nil)
    }

    /// The `locale` pattern in openapi.yaml: what a client generated from the contract, and schemathesis, test against.
    static func contractPattern() throws -> NSRegularExpression {
        let contract = try String(contentsOfFile: repositoryPromptsDirectory + "/../openapi.yaml", encoding: .utf8)
        let locale = try #require(contract.range(of: "        locale:\n          type: [string, \"null\"]"))
        let patternLine = try #require(contract[locale.upperBound...].split(separator: "\n").first { $0.contains("pattern:") })
        let pattern = try #require(patternLine.split(separator: "\"", maxSplits: 1).last).dropLast()
        return try NSRegularExpression(pattern: String(pattern))
    }

    @Test("The parser and openapi.yaml's pattern agree on 20,000 random strings made of tag-like pieces")
    func agreesWithContract() throws {
        let regex = try Self.contractPattern()
        let pieces = ["en", "zh", "Hant", "x", "a", "US", "419", "1996", "abc", "toolongxx", "bbbbb", "1ab", "-", "-", "_", "q", "<", "9"]
        var generator = SystemRandomNumberGenerator()
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...7, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            guard text.utf8.count <= 35 else { continue }
            let matches = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            if matches != (LanguageTag(text) != nil) { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    static let catalog = Result { try CopyCatalog.load(from: repositoryPromptsDirectory) }

    @Test(
        "BCP 47 lookup picks the shipped copy: region and script fall away, Chinese by script, English when nothing matches",
        arguments: [
            ("ja-JP", "ja"), ("ja", "ja"), ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-MO", "zh-Hant"), ("zh-CN", "zh-Hans"),
            ("zh", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-Hant-CN", "zh-Hant"), ("zh-Hans-TW", "zh-Hans"), ("pt-BR", "pt"), ("pt-PT", "pt"),
            ("fr-CA", "fr"), ("es-419", "es"), ("ar-EG", "ar"), ("hi-IN", "hi"), ("ko-KR", "ko"), ("th-TH", "th"), ("de-AT", "de"),
            ("it-CH", "it"), ("en-GB", "en"), ("tlh", "en"), ("x-private", "en"), ("nl-NL", "en"),
        ]
    )
    func lookup(locale: String, expected: String) throws {
        #expect(try Self.catalog.get().copy(for: try #require(LanguageTag(locale))).locale.description == expected)
    }

    @Test("Every shipped language has its copy: three fallbacks and the three messages, none of them the English words")
    func shippedLanguages() throws {
        let catalog = try Self.catalog.get()
        let shipped = ["ar", "de", "en", "es", "fr", "hi", "it", "ja", "ko", "pt", "th", "zh-Hans", "zh-Hant"]
        #expect(catalog.locales == shipped)
        let english = catalog.english
        for tag in shipped where tag != "en" {
            let copy = catalog.copy(for: try #require(LanguageTag(tag)))
            #expect(copy.fallbacks.texts.count >= 3, "\(tag)")
            let texts = copy.fallbacks.texts + [copy.timeoutMessage, copy.errorMessage, copy.refreshLimitMessage]
            let englishTexts = english.fallbacks.texts + [english.timeoutMessage, english.errorMessage, english.refreshLimitMessage]
            #expect(Set(texts).isDisjoint(with: englishTexts), "\(tag) still has English copy")
            // Every fallback is a question in its own script.
            #expect(copy.fallbacks.texts.allSatisfy(QuestionMarks.endsQuestion), "\(tag)")
        }
    }

    @Test(
        "Templates are told the language by name",
        arguments: [
            ("ja-JP", "Japanese"), ("zh-TW", "Chinese (Traditional)"), ("zh-CN", "Chinese (Simplified)"), ("pt-BR", "Portuguese"),
            ("ar-EG", "Arabic"), ("tlh", "Klingon"), ("qaa", "qaa"), ("x-private", "x-private"),
        ]
    )
    func languageNames(locale: String, expected: String) throws {
        #expect(LanguageNames.englishName(of: try #require(LanguageTag(locale))) == expected)
    }
}
