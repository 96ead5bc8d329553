import Foundation
import PromptDomain
import PromptGeneration
import PromptTemplates
import StubModel
import Testing

@testable import PhotoPrompts

@Suite("The word rule in every writing system")
struct LanguageWordRuleTests {
    static func validator(_ locale: String, overrides: [String: ClosedRange<Int>] = [:]) -> PromptValidator {
        PromptValidator(
            wordRule: .for(LanguageTag(locale)!, overrides: overrides),
            checks: PromptChecks(mustEndWithQuestionMark: true, rejectsLinks: true)
        )
    }

    /// Each shipped language's translations of the calibration questions, with a locale a user would send.
    static let locales = [
        "ja": "ja-JP", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "th": "th-TH", "ko": "ko-KR", "ar": "ar-EG", "hi": "hi-IN", "de": "de-DE",
        "es": "es-ES", "fr": "fr-FR", "it": "it-IT", "pt": "pt-BR",
    ]

    @Test("Natural translations of 8- to 15-word English questions pass in every shipped language", arguments: locales.keys.sorted())
    func translationsPass(language: String) throws {
        let questions = try #require(ReferenceQuestions.translations[language])
        let validation = Self.validator(Self.locales[language]!).validate(questions)
        #expect(validation.rejected.isEmpty, "\(validation.rejected.map { "\($0.candidate): \($0.reason)" })")
        #expect(validation.kept.count == ReferenceQuestions.english.count)
    }

    @Test("The English originals span the spec's 8 to 15 words, and keep today's rule")
    func englishOriginals() {
        let counts = ReferenceQuestions.english.map(WordCounter.count)
        #expect(counts.min() == 8)
        #expect(counts.max() == 15)
        #expect(Self.validator("en-US").validate(ReferenceQuestions.english).kept.count == counts.count)
    }

    @Test(
        "Japanese, Chinese and Thai are counted in words, not as one run without spaces",
        arguments: [
            ("ja-JP", "この写真を撮る直前、何を考えていましたか？", 12),
            ("zh-CN", "拍下这张照片之前，你在想些什么？", 9),
            ("th-TH", "ตอนที่มาถึงที่นี่ครั้งแรก คุณรู้สึกอย่างไร?", 9),
        ]
    )
    func segmented(locale: String, text: String, words: Int) {
        #expect(WordCounter.count(text) <= 2, "spaces alone see at most two words")
        #expect(WordRule.for(LanguageTag(locale)!).count(text) == words)
    }

    @Test(
        "A one-word question and a 120-character one are rejected in languages without spaces",
        arguments: [
            (
                "ja-JP", "なぜ？",
                "この写真を撮った日の朝、あなたはどこで目を覚まし、誰と一緒に朝ごはんを食べ、どんな気持ちで家を出て、どの道を通ってこの場所までやって来て、そこで最初に目に入った景色や聞こえてきた音、そして心に浮かんだ思い出について、今振り返ってみて特に印象に残っていることは何ですか？"
            ),
            (
                "zh-CN", "为什么？",
                "在拍下这张照片的那一天，你早上是在哪里醒来的，和谁一起吃了早饭，怀着怎样的心情出门，又是沿着哪条路来到这个地方，在这里第一眼看到了什么风景，听到了什么声音，心里想起了哪些往事，如今回想起来，哪一个细节让你印象最深，为什么它会一直留在你的记忆里呢？"
            ),
            (
                "th-TH", "ทำไม?",
                "ในวันที่คุณถ่ายรูปนี้ คุณตื่นนอนที่ไหน กินข้าวเช้ากับใคร ออกจากบ้านด้วยความรู้สึกแบบไหน เดินทางมาที่นี่ด้วยเส้นทางใด และเมื่อมาถึงแล้วสิ่งแรกที่คุณเห็นคืออะไร?"
            ),
        ]
    )
    func lengthBounds(locale: String, oneWord: String, long: String) {
        #expect(long.count >= 100)
        let validation = Self.validator(locale).validate([oneWord, long])
        #expect(validation.kept.isEmpty)
        #expect(validation.rejected.map(\.reason.code) == ["too_short", "too_long"])
    }

    @Test("An Arabic question ending in ؟ is kept, and the same words ending in a full stop are not")
    func arabicQuestionMark() {
        let question = "ما الذي جعل هذا اليوم العادي مختلفًا عن بقية أيام الأسبوع؟"
        let validator = Self.validator("ar-EG")
        #expect(validator.validate([question]).kept.map(\.text) == [question])
        #expect(validator.validate([String(question.dropLast()) + "."]).rejected.map(\.reason) == [.notAQuestion])
    }

    @Test("word_count is the count under the language's rule")
    func wordCountUnderTheRule() throws {
        let text = "この瞬間の音や香りで、ずっと残しておきたいものは何ですか？"
        let kept = try #require(Self.validator("ja-JP").validate([text]).kept.first)
        #expect(kept.wordCount == WordRule.for(LanguageTag("ja")!).count(text))
        #expect(kept.wordCount > 10)
    }

    @Test("The re-ask states the language's range in words: too short at 3 words; write 11 to 21")
    func reaskInTheModelsTerms() {
        let validator = Self.validator("ja-JP")
        let validation = validator.validate(["なぜですか？"])
        let message = ReaskFeedback.message(for: validation, needed: 3, rule: validator.wordRule)
        #expect(message.contains("too short at 3 words; write 11 to 21"))
        #expect(message.contains("Each must be 11 to 21 words long"))
    }

    @Test("settings.json's word_ranges replace a language's range, and refuse a key that is not a language or a range upside down")
    func overrides() throws {
        let settings = try TemplateSettings.parse(#"{"word_ranges": {"ja": {"min": 3, "max": 6}}}"#, file: "t/settings.json")
        #expect(WordRule.for(LanguageTag("ja-JP")!, overrides: settings.wordRanges).range == 3...6)
        #expect(WordRule.for(LanguageTag("ko-KR")!, overrides: settings.wordRanges).range == CalibratedWordRanges.byLanguage["ko"])
        for bad in [#"{"word_ranges": {"ja-JP": {"min": 3, "max": 6}}}"#, #"{"word_ranges": {"ja": {"min": 9, "max": 6}}}"#] {
            #expect(throws: TemplateError.self) { try TemplateSettings.parse(bad, file: "t/settings.json") }
        }
    }
}
