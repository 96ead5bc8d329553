import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import StubModel
import Testing

/// Each card's angle, by the files operators edit (`prompts/angles/`), judged against tables written here.
@Suite("Angles: the kind of question a card asks, in every shipped language")
struct AngleTests {
    static let catalog = Result { try Angles.Catalog.load(from: repositoryPromptsDirectory, only: nil) }

    /// The angle of each of the eleven reference questions, which every language translates in the same order.
    static let referenceAngles = [
        "people", "future", "senses", "feeling", "before", "meaning", "detail", "future", "people", "change", "feeling",
    ]

    static let languages = ["en"] + ReferenceQuestions.translations.keys.sorted()

    @Test("Every shipped language lists the same ten angles, in the same order", arguments: languages)
    func sameAngles(locale: String) throws {
        let angles = try Self.catalog.get().angles(for: try #require(LanguageTag(locale)))
        #expect(
            angles.all.map(\.name) == ["senses", "people", "before", "after", "feeling", "meaning", "detail", "future", "gratitude", "change"]
        )
    }

    @Test("The reference questions take the angle the table gives, in every language", arguments: languages)
    func referenceQuestions(locale: String) throws {
        let language = try #require(LanguageTag(locale))
        let angles = try Self.catalog.get().angles(for: language)
        let questions = locale == "en" ? ReferenceQuestions.english : try #require(ReferenceQuestions.translations[locale])
        for (question, expected) in zip(questions, Self.referenceAngles) {
            #expect(angles.name(of: PromptSignature(question, language: language)) == expected, "\(question)")
        }
    }

    /// Questions in English for the angles the reference questions leave out, and cards that take none.
    @Test(
        "English cards of every angle, and generic ones of none",
        arguments: [
            ("What did you hear around you when you took this photo?", "senses"),
            ("What happened right after you took this photo?", "after"),
            ("What were you most grateful for on this walk?", "gratitude"),
            ("How has this place changed since you were last there?", "change"),
            ("What little detail of the market caught your eye first?", "detail"),
            ("Which friend would you most like to share this beach with?", "people"),
            ("What does this harbour mean to you, looking back now?", "meaning"),
            ("What was the best part of this trip for you?", nil),
        ] as [(String, String?)]
    )
    func englishCards(card: String, expected: String?) throws {
        let angles = try Self.catalog.get().angles(for: .english)
        #expect(angles.name(of: PromptSignature(card, language: .english)) == expected)
    }

    @Test("A cue of several words shows its angle only in a card that has every one of them")
    func cueOfSeveralWords() throws {
        let angles = try Angles(lines: ["river | ask a | river", "cold | ask b | cold water"], language: .english)
        #expect(angles.name(of: PromptSignature("What did the cold water feel like that morning?", language: .english)) == "cold")
        #expect(angles.name(of: PromptSignature("What was so cold about that morning?", language: .english)) == nil)
        #expect(angles.name(of: PromptSignature("What did the water look like that morning?", language: .english)) == nil)
        #expect(angles.name(of: PromptSignature("What did the river look like that morning?", language: .english)) == "river")
    }

    @Test("A template that names its angles asks only for those, in its order; a name no file lists is an error")
    func templateSelection() throws {
        let lists = LanguageLists(["en": ["a | ask a | sound", "b | ask b | smell", "c | ask c | taste"]])
        let chosen = try Angles.Catalog(lists, only: ["c", "a"]).angles(for: .english)
        #expect(chosen.all.map(\.name) == ["c", "a"])
        #expect(throws: AnglesError.self) { try Angles.Catalog(lists, only: ["d"]) }
        #expect(throws: AnglesError.self) { try Angles.Catalog(LanguageLists(["en": ["a | ask a | the"]])) }
        #expect(throws: AnglesError.self) { try Angles.Catalog(LanguageLists(["en": ["a | sound"]])) }
    }
}
