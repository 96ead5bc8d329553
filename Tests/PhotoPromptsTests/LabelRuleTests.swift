import PhotoPromptsTestSupport
import PromptDomain
import Testing

/// A label is what a model writes before the question itself, in any wording: the test's labels are ones no list in
/// the code names, and its questions with a colon or a dash inside are questions, not labels.
@Suite("A label in any wording is removed and the question kept", .dictionariesOpened)
struct LabelRuleTests {
    /// Labels in wordings of their own, two per shipped locale, and the question the validator should keep.
    static let labelled: [(locale: String, label: String)] = [
        ("en", "Something to reflect on: "), ("en", "Journal starter — "), ("es", "**Pregunta de reflexión:** "), ("es", "Para tu diario: "),
        ("pt", "Reflexão do dia: "), ("pt", "Para pensar - "), ("fr", "À méditer : "), ("fr", "Question du jour : "),
        ("de", "Zum Nachdenken: "), ("de", "Impuls für heute – "), ("it", "Spunto di riflessione: "), ("it", "Per il diario: "),
        ("nl", "Om over na te denken: "), ("nl", "Dagboekvraag: "), ("ja", "振り返り："), ("ja", "今日の問い："),
        ("zh-Hans", "反思问题："), ("zh-Hans", "今日话题："), ("zh-Hant", "反思問題："), ("zh-Hant", "今日話題："),
        ("ko", "오늘의 성찰: "), ("ko", "일기 주제: "), ("ar", "للتأمل: "), ("ar", "سؤال اليوم: "),
        ("hi", "चिंतन के लिए: "), ("hi", "आज का विचार: "), ("th", "ชวนคิด: "), ("th", "คำถามวันนี้: "),
    ]

    @Test("A label no list names is removed, and the question it labels is kept", arguments: labelled)
    func labelIsRemoved(locale: String, label: String) {
        for question in GateKeepsTests.references(locale).prefix(3) {
            #expect(PromptNormalizer.normalize(label + question) == question, "\(label)\(question)")
            #expect(GateTableTests.validator(locale).validate([label + question]).kept.map(\.text) == [question])
        }
    }

    @Test("The issue's line: a Spanish label in bold is removed and the question shown")
    func spanishLabelInBold() {
        let line = "**Pregunta de reflexión:** ¿Con quién te gustaría compartir un atardecer así el próximo verano?"
        #expect(PromptNormalizer.normalize(line) == "¿Con quién te gustaría compartir un atardecer así el próximo verano?")
    }

    @Test(
        "A question with a colon or a dash inside is one question and stays whole",
        arguments: [
            "Which mattered more that evening: the view or the company you shared it with?",
            "Your first morning in Lisbon – what did the air smell like when you woke up?",
            "¿Qué te llevaste de aquel viaje: una foto, un sabor o una conversación?",
            "Qu'est-ce qui comptait le plus ce soir-là : la vue ou les gens autour de toi ?",
            "Was war schöner an diesem Abend: der Blick aufs Meer oder das Gespräch?",
            "Qual foi o melhor momento: O pôr do sol?",
            "Your favourite moment there: When?",
            "Der schönste Moment dort: Wann?",
            "What did the Wi-Fi-free weekend at the cabin give you that home does not?",
            "At 6:30 in the morning, who was already awake on the beach with you?",
        ]
    )
    func innerColonStays(question: String) {
        #expect(PromptNormalizer.normalize(question) == question)
    }
}
