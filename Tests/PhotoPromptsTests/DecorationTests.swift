import PhotoPromptsTestSupport
import PromptDomain
import Testing

/// What a model wraps its questions in (list numbers, bullets, labels, emphasis) comes off before a candidate is
/// judged, and a sentence that only looks like decoration stays whole.
@Suite("Decoration is stripped before a candidate is judged", .dictionariesOpened)
struct DecorationTests {
    @Test("The same question under two numbers is one question")
    func numberedTwice() {
        let validation = GateTableTests.validator("en").validate([
            "1. What does the sunset at Praia da Rocha remind you of?",
            "4.What does the sunset at Praia da Rocha remind you of?",
        ])
        #expect(validation.kept.map(\.text) == ["What does the sunset at Praia da Rocha remind you of?"])
        #expect(validation.rejected.map(\.reason) == [.duplicate])
    }

    @Test(
        "Decoration is stripped before the rest is judged",
        arguments: [
            ("1.What does this beach remind you of today?", "What does this beach remind you of today?"),
            ("2.¿Para qué viniste a esta playa aquella tarde?", "¿Para qué viniste a esta playa aquella tarde?"),
            ("6) What does this beach remind you of today?", "What does this beach remind you of today?"),
            ("3 - What does this beach remind you of today?", "What does this beach remind you of today?"),
            ("Question 3: What does this beach remind you of today?", "What does this beach remind you of today?"),
            ("Reflection Question: What does this beach remind you of today?", "What does this beach remind you of today?"),
            ("**Prompt:** What does this beach remind you of today?", "What does this beach remind you of today?"),
            ("Pregunta 2: ¿Para qué viniste a esta playa aquella tarde?", "¿Para qué viniste a esta playa aquella tarde?"),
            ("Frage 1: Woran erinnert dich dieser Abend am Strand?", "Woran erinnert dich dieser Abend am Strand?"),
            ("質問1：この夕日を見たとき、どんな気持ちになりましたか？", "この夕日を見たとき、どんな気持ちになりましたか？"),
            ("### What does this beach remind you of today?", "What does this beach remind you of today?"),
            // Sentences, not decoration.
            ("What's the question: did you feel at home on this beach?", "What's the question: did you feel at home on this beach?"),
            ("3 friends, one beach: who laughed first that evening?", "3 friends, one beach: who laughed first that evening?"),
            ("3:30 in the morning: why were you on the beach?", "3:30 in the morning: why were you on the beach?"),
        ]
    )
    func decoration(raw: String, expected: String) {
        #expect(PromptNormalizer.normalize(raw) == expected)
    }
}
