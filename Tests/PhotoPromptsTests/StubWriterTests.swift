import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import StubModel
import Testing

@testable import PhotoPrompts

/// The stub model stands in for a good one in tests and `make run`: it writes the number of questions asked, each
/// different, whatever the photo.
@Suite("The stub writes as many different questions as asked")
struct StubWriterTests {
    /// Photos whose pools hold 19 to 48 questions, 21 of them (people only) a multiple of the stride the stub steps by.
    @Test(
        "Six questions asked, six different ones written",
        arguments: [
            "", "people_count: 2", "labels: dog", "labels: dog, ball\nplace: Lisboa\npeople_count: 3",
            "labels: harbor, boats, lighthouse\nplace: Lisboa\npeople_count: 2",
        ]
    )
    func sixDifferent(facts: String) {
        let questions = StubPromptWriter.questions(system: "Write 6 questions.", user: "<photo>\n\(facts)\n</photo>")
        #expect(questions.count == 6, "\(questions)")
        #expect(Set(questions).count == 6)
    }

    @Test("Like a model that follows its instructions, it writes one question per frame, and none of a frame shown")
    func oneQuestionPerFrame() {
        let user = "<photo>\nlabels: harbor, boats\n</photo>\nAlready asked, do not repeat:\n- What drew your eye to the harbor in this photo?"
        let questions = StubPromptWriter.questions(system: "Write 30 questions.", user: user)
        #expect(questions.count == 26, "7 label frames of 8 left, and 19 general")
        #expect(!questions.contains { $0.hasPrefix("What drew your eye to the") })
        #expect(questions.count { $0.hasPrefix("If the ") && $0.hasSuffix(" could talk, what would it say about this day?") } == 1)
    }

    @Test("For a photo with labels, a place and people it writes at least 30 frames in English, of every angle")
    func framesAndAngles() throws {
        let user = "<photo>\nlabels: harbor, boats, lighthouse\nplace: Lisboa\npeople_count: 2\n</photo>"
        let questions = StubPromptWriter.questions(system: "Write 60 questions.", user: user)
        #expect(questions.count >= 30, "one question per frame")
        let angles = try Angles.Catalog.load(from: repositoryPromptsDirectory, only: nil).angles(for: .english)
        let met = Set(questions.compactMap { angles.name(of: PromptSignature($0, language: .english)) })
        #expect(met == Set(angles.all.map(\.name)), "angles never written: \(Set(angles.all.map(\.name)).subtracting(met))")
    }

    @Test("It reads the people at the end of the photo's sentence as people, not as a label")
    func peopleEndingTheSentence() {
        let user = "<photo>Photo, showing birthday cake, candles, 5 people.</photo>"
        let questions = StubPromptWriter.questions(system: "Write 60 questions.", user: user)
        #expect(!questions.contains { $0.contains("people") && $0.contains("5") }, "\(questions)")
        #expect(questions.contains("Who was with you here, and what were you talking about?"))
        #expect(questions.contains { $0.contains("candles") })
    }

    /// Each shipped language other than English, by the locale a request names and the language tag of its lists.
    static let otherLanguages: [(locale: String, tag: String)] = [
        ("es-ES", "es"), ("fr-FR", "fr"), ("it-IT", "it"), ("pt-BR", "pt"), ("de-DE", "de"), ("ja-JP", "ja"),
        ("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant"), ("ko-KR", "ko"), ("ar-EG", "ar"), ("hi-IN", "hi"), ("th-TH", "th"),
    ]

    @Test(
        "In every other shipped language it writes about the photo too, in 23 frames of every angle, each kept by the gate",
        .dictionariesOpened,
        arguments: otherLanguages
    )
    func photoQuestionsInEveryLanguage(locale: String, tag: String) throws {
        // The gate tables' photo: its labels and place are the photo's own words in any language.
        let user = "<photo>\nlabels: beach, sunset, dog\nplace: Praia da Rocha\npeople_count: 2\n</photo>"
        let questions = StubPromptWriter.questions(system: "Write 60 questions in the language of the locale \(locale).", user: user)
        #expect(questions.count == 23, "8 label frames, 3 place frames, 1 of people and the 11 reference questions")
        let naming = questions.filter { ["beach", "sunset", "dog", "Praia da Rocha"].contains(where: $0.contains) }
        #expect(naming.count == 11, "\(naming)")
        for question in questions {
            #expect(GateTableTests.verdict(question, locale: tag) == nil, "\(question)")
        }
        let language = LanguageTag(locale: tag)
        let angles = try Angles.Catalog.load(from: repositoryPromptsDirectory, only: nil).angles(for: language)
        let met = Set(questions.compactMap { angles.name(of: PromptSignature($0, language: language)) })
        #expect(met == Set(angles.all.map(\.name)), "angles never written: \(Set(angles.all.map(\.name)).subtracting(met))")
    }
}
