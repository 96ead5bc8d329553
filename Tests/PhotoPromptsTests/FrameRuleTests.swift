import PhotoPromptsTestSupport
import PromptDomain
import Testing

/// A card's frame is what is left when the photo's own words are taken out: two cards of one frame are never shown
/// in one session. The tables say by hand which pairs share a frame.
@Suite("Two cards of one frame are never shown in one session")
struct FrameRuleTests {
    /// A harbour at dawn with boats and a lighthouse, photographed in Lisbon.
    static let harbour = PhotoMetadata(
        location: .init(name: "Cais do Sodré", locality: "Lisboa", country: "Portugal"),
        labels: ["harbor", "boats", "lighthouse", "puerto", "barcos", "faro", "Hafen", "Boote", "Leuchtturm", "港", "船", "灯台", "灯塔"],
        caption: "朝の港"
    )

    /// A card shown, the next card, the locale, and whether the two share a frame.
    static let pairs: [(shown: String, next: String, locale: String, sameFrame: Bool)] = [
        ("How did you feel about the harbor and the boats?", "How did you feel about the lighthouse and the boats?", "en", true),
        ("What drew your eye to the lighthouse in this photo?", "What drew your eye to the boats in this photo?", "en", true),
        ("What will you remember most about being in Lisboa?", "What will you remember most about the harbor?", "en", true),
        ("How did you feel about the harbor and the boats?", "Who first showed you the harbor and its boats?", "en", false),
        ("What drew your eye to the lighthouse in this photo?", "What sound do you remember from the harbor that morning?", "en", false),
        ("¿Qué sentiste al ver el puerto aquella mañana?", "¿Qué sentiste al ver los barcos aquella mañana?", "es", true),
        ("¿Qué sentiste al ver el puerto aquella mañana?", "¿Con quién caminaste hasta el faro aquella mañana?", "es", false),
        ("Was hast du gefühlt, als du den Hafen gesehen hast?", "Was hast du gefühlt, als du die Boote gesehen hast?", "de", true),
        ("Was hast du gefühlt, als du den Hafen gesehen hast?", "Wer hat dir den Leuchtturm zum ersten Mal gezeigt?", "de", false),
        ("港を見たとき、どんな気持ちでしたか？", "灯台を見たとき、どんな気持ちでしたか？", "ja", true),
        ("港を見たとき、どんな気持ちでしたか？", "その朝、船の音はどんな思い出を運んできましたか？", "ja", false),
        ("看到港的时候，你有什么感受？", "看到灯塔的时候，你有什么感受？", "zh-Hans", true),
        ("看到港的时候，你有什么感受？", "那天早上是谁陪你走到灯塔的？", "zh-Hans", false),
    ]

    @Test("A session that showed one card meets the other as seen only when they share a frame", arguments: pairs.indices)
    func pair(index: Int) {
        let (shown, next, locale, sameFrame) = Self.pairs[index]
        let language = LanguageTag(locale: locale)
        var session = SeenPrompts(language: language).framing(Self.harbour)
        session.insert(text: shown, repeatKey: PromptNormalizer.repeatKey(shown))
        #expect(session.contains(text: next, repeatKey: PromptNormalizer.repeatKey(next)) == sameFrame, "\(shown) / \(next)")
        // Without the photo's words taken out, only a near-duplicate is seen: these pairs are not near-duplicates.
        var plain = SeenPrompts(language: language)
        plain.insert(text: shown, repeatKey: PromptNormalizer.repeatKey(shown))
        #expect(!plain.contains(text: next, repeatKey: PromptNormalizer.repeatKey(next)), "\(shown) / \(next)")
    }

    @Test("An answer keeps the first card of each frame, and the history's cards are not frames")
    func answerAndHistory() {
        let cards = [
            "How did you feel about the harbor and the boats?", "Who first showed you the harbor and its boats?",
            "How did you feel about the lighthouse and the boats?",
        ]
        let valid = cards.map { ValidPrompt(text: $0, wordCount: 9) }
        #expect(SeenPrompts(language: .english).framing(Self.harbour).fresh(valid).map(\.text) == Array(cards.prefix(2)))
        // Another photo's card in the history keeps only itself and its near-duplicates away, not its frame.
        let history = SeenHistory([
            SeenPrompt(key: SeenPrompt.key(valid[0].repeatKey), signature: PromptSignature(cards[0], language: .english), shownAt: .now)
        ])
        let returning = SeenPrompts(language: .english, history: history).framing(Self.harbour)
        #expect(!returning.contains(valid[2]))
    }
}
