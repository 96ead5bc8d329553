import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

/// The good questions of `prompts/good/`, written fresh for the gate in every shipped language: a gate that rejects
/// one is as wrong as one that shows a bad line.
@Suite("Fresh good questions pass in every shipped language", .dictionariesOpened)
struct GoodQuestionTableTests {
    static let locales = ["en", "es", "pt", "fr", "de", "it", "ja", "zh-Hans", "zh-Hant", "ko", "ar", "hi", "th"]

    /// The lines of `prompts/good/<locale>.txt`, read as the service reads them.
    static func goodQuestions(_ locale: String) throws -> [String] {
        try LanguageLists.load("good", from: repositoryPromptsDirectory).lines(for: LanguageTag(locale: locale))
    }

    @Test("At least ten fresh good questions, each kept as written", arguments: locales)
    func everyGoodQuestionIsKept(locale: String) throws {
        let questions = try Self.goodQuestions(locale)
        #expect(questions.count >= 10)
        for question in questions {
            let validation = GateTableTests.validator(locale).validate([question])
            #expect(validation.kept.map(\.text) == [question], "\(question): \(validation.rejected.map(\.reason))")
        }
    }

    /// The examples of `prompts/examples/` teach the model by being copied: one the gate would reject teaches it a
    /// card the user never sees.
    @Test("Every language's examples are kept by its gate as written, and reach its system prompt", arguments: locales)
    func examplesAreGoodQuestions(locale: String) throws {
        let examples = try LanguageLists.load("examples", from: repositoryPromptsDirectory).lines(for: LanguageTag(locale: locale))
        #expect(examples.count >= 2)
        let template = try PromptTemplate.load(name: "photo-journal", from: repositoryPromptsDirectory, dictionaries: testDictionaries)
        let system = template.render(TemplateContext(photo: PhotoMetadata(labels: ["beach"]), locale: LanguageTag(locale: locale), candidateCount: 6)).system
        for example in examples {
            let validation = GateTableTests.validator(locale).validate([example])
            #expect(validation.kept.map(\.text) == [example], "\(example): \(validation.rejected.map(\.reason))")
            #expect(system.contains(example), "\(example)")
        }
    }
}
