import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import StubModel
import Testing

@testable import PhotoPrompts

/// The gate keeps what a person would: labelled questions cleaned, not dropped; Hindi with the English loanwords
/// Hindi speakers write; and it turns away a model talking about "the text" or itself in every script.
@Suite("The gate keeps what is good, and catches talk about the text in every script", .dictionariesOpened)
struct GateKeepsTests {
    /// A label a model puts before a question, in each shipped language, with the reference question it labels.
    static let labelled: [(locale: String, label: String)] = [
        ("en", "Prompt 5 - "), ("en", "Question 3: "), ("en", "**Prompt:** "), ("en", "Reflection Question 3: "),
        ("es", "Pregunta 3: "), ("pt", "Pergunta 3: "), ("fr", "Question 3 : "), ("de", "Frage 3: "), ("it", "Domanda 3: "),
        ("ja", "質問3："), ("zh-Hans", "问题3："), ("zh-Hant", "問題3："), ("ko", "질문 3: "), ("ar", "سؤال 3: "), ("hi", "प्रश्न 3: "),
        ("th", "คำถาม 3: "),
    ]

    /// The reference questions of `locale`, as translators wrote them.
    static func references(_ locale: String) -> [String] {
        locale == "en" ? ReferenceQuestions.english : ReferenceQuestions.translations[locale] ?? []
    }

    @Test("A labelled question among numbered ones is cleaned and kept, in every shipped language", arguments: labelled)
    func labelledLineInAList(locale: String, label: String) throws {
        let questions = Self.references(locale)
        try #require(questions.count >= 3)
        let reply = "1. \(questions[0])\n2. \(questions[1])\n\(label)\(questions[2])"
        let candidates = ReplyExtractor.lineCandidates(in: reply)
        #expect(candidates.count == 3, "\(candidates)")
        let kept = GateTableTests.validator(locale).validate(candidates).kept.map(\.text)
        #expect(kept == Array(questions[0..<3]), "\(kept)")
    }

    @Test("A bare label introduces the list, as a heading does, and is not judged")
    func bareLabelIsAHeading() {
        let reply = "**Prompt:**\n1. \(ReferenceQuestions.english[0])\n2. \(ReferenceQuestions.english[1])"
        #expect(ReplyExtractor.lineCandidates(in: reply).count == 2)
    }

    @Test(
        "Hindi questions with the English loanwords Hindi speakers write pass (prompts/words/hi.txt)",
        arguments: [
            "उस वीकेंड की पिकनिक में आपने सबसे ज़्यादा क्या एन्जॉय किया?",
            "इस सेल्फ़ी को लेते समय आप सब किस बात पर हँस रहे थे?",
            "सनसेट देखते हुए आपके मन में कौन से ख़याल आ रहे थे?",
            "उस ट्रिप के दौरान आपकी फ़ेवरेट मेमोरी कौन सी है?",
        ]
    )
    func hindiLoanwords(question: String) {
        #expect(GateTableTests.verdict(question, locale: "hi") == nil)
        // Without the list, the dictionary alone rejects it: the list is what keeps it.
        let bare = PromptGate(
            language: LanguageTag(locale: "hi"),
            photo: GateTableTests.photo,
            chatter: GateTableTests.chatter,
            dictionaries: testDictionaries
        )
        #expect(bare.failure(for: question) != nil)
    }

    @Test("An invented Hindi word is still unknown with the list loaded")
    func inventedHindiStillFails() {
        #expect(GateTableTests.verdict("उस वीकेंड की पिकनिकझलमलाहटें में आपने सबसे ज़्यादा क्या किया?", locale: "hi") != nil)
    }

    @Test(
        "A model talking about the text, the writing task or itself is assistant_chatter in ja, zh, ko, th and hi",
        arguments: [
            ("ja", "写手モデルの文章を日本語で書きましょうか？"),
            ("ja", "この文章は、どんな気持ちで書かれたのでしょうか？"),
            ("zh-Hans", "这段文字让你想起了哪一天的海边和你的狗？"),
            ("zh-Hant", "這段文字讓你想起了哪一天的海邊和你的狗？"),
            ("ko", "이 글은 해변에서 어떤 하루를 보냈는지 말해 주나요?"),
            ("th", "ข้อความนี้ทำให้คุณนึกถึงวันไหนที่ชายหาดกับสุนัขของคุณ?"),
            ("hi", "यह पाठ आपको समुद्र तट पर बिताए किस दिन की याद दिलाता है?"),
        ]
    )
    func talkAboutTheText(locale: String, text: String) {
        #expect(GateTableTests.verdict(text, locale: locale) == .assistantChatter)
    }
}
