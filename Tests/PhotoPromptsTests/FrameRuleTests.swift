import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

/// A card's frame is what is left when the photo's own words are taken out: two cards of one frame are never shown
/// in one session, and a frame met about one photo is held across the month. The tables say by hand which pairs
/// share a frame.
@Suite("Frames: never two of one in a session, and not again too soon in a month")
struct FrameRuleTests {
    /// A harbour at dawn with boats and a lighthouse, photographed in Lisbon.
    static let harbour = PhotoMetadata(
        location: .init(name: "Cais do Sodré", locality: "Lisboa", country: "Portugal"),
        labels: ["harbor", "boats", "lighthouse", "puerto", "barcos", "faro", "Hafen", "Boote", "Leuchtturm", "港", "船", "灯台", "灯塔"],
        caption: "朝の港"
    )

    /// A card shown, the next card, the locale, whether the two share a frame, and whether they are worded a word or
    /// two apart (``PromptSignature/isRewording(of:)``), counted here by hand.
    static let pairs: [(shown: String, next: String, locale: String, sameFrame: Bool, reworded: Bool)] = [
        ("How did you feel about the harbor and the boats?", "How did you feel about the lighthouse and the boats?", "en", true, true),
        ("What drew your eye to the lighthouse in this photo?", "What drew your eye to the boats in this photo?", "en", true, true),
        ("What will you remember most about being in Lisboa?", "What will you remember most about the harbor?", "en", true, false),
        ("How did you feel about the harbor and the boats?", "Who first showed you the harbor and its boats?", "en", false, false),
        ("What drew your eye to the lighthouse in this photo?", "What sound do you remember from the harbor that morning?", "en", false, false),
        ("¿Qué sentiste al ver el puerto aquella mañana?", "¿Qué sentiste al ver los barcos aquella mañana?", "es", true, true),
        ("¿Qué sentiste al ver el puerto aquella mañana?", "¿Con quién caminaste hasta el faro aquella mañana?", "es", false, false),
        ("Was hast du gefühlt, als du den Hafen gesehen hast?", "Was hast du gefühlt, als du die Boote gesehen hast?", "de", true, true),
        ("Was hast du gefühlt, als du den Hafen gesehen hast?", "Wer hat dir den Leuchtturm zum ersten Mal gezeigt?", "de", false, false),
        ("港を見たとき、どんな気持ちでしたか？", "灯台を見たとき、どんな気持ちでしたか？", "ja", true, true),
        ("港を見たとき、どんな気持ちでしたか？", "その朝、船の音はどんな思い出を運んできましたか？", "ja", false, false),
        ("看到港的时候，你有什么感受？", "看到灯塔的时候，你有什么感受？", "zh-Hans", true, true),
        ("看到港的时候，你有什么感受？", "那天早上是谁陪你走到灯塔的？", "zh-Hans", false, false),
    ]

    @Test("A session that showed one card meets the other as seen only when they share a frame", arguments: pairs.indices)
    func pair(index: Int) {
        let (shown, next, locale, sameFrame, reworded) = Self.pairs[index]
        let language = LanguageTag(locale: locale)
        var session = SeenPrompts(language: language).framing(Self.harbour, angles: .none)
        session.insert(text: shown, repeatKey: PromptNormalizer.repeatKey(shown))
        #expect(session.contains(text: next, repeatKey: PromptNormalizer.repeatKey(next)) == sameFrame, "\(shown) / \(next)")
        // Without the photo's words taken out, only a rewording is seen: these pairs are not near-duplicates.
        var plain = SeenPrompts(language: language)
        plain.insert(text: shown, repeatKey: PromptNormalizer.repeatKey(shown))
        #expect(plain.contains(text: next, repeatKey: PromptNormalizer.repeatKey(next)) == reworded, "\(shown) / \(next)")
    }

    @Test("An answer keeps the first card of each frame")
    func answer() {
        let cards = [
            "How did you feel about the harbor and the boats?", "Who first showed you the harbor and its boats?",
            "How did you feel about the lighthouse and the boats?",
        ]
        let valid = cards.map { ValidPrompt(text: $0, wordCount: 9) }
        #expect(SeenPrompts(language: .english).framing(Self.harbour, angles: .none).fresh(valid).map(\.text) == Array(cards.prefix(2)))
    }

    /// A market in Marrakesh, in the words of five languages.
    static let market = PhotoMetadata(
        location: .init(name: "Jemaa el-Fna", locality: "Marrakesh", country: "Morocco"),
        labels: ["market", "spices", "mercado", "especias", "Markt", "Gewürze", "市場", "市场", "香辛料"]
    )

    /// A card shown about the market, a card about the harbour a day later, the locale, and whether the two share a
    /// frame.
    static let monthPairs: [(shown: String, next: String, locale: String, sameFrame: Bool)] = [
        ("How did you feel about the market and the spices?", "How did you feel about the harbor and the boats?", "en", true),
        ("What drew your eye to the spices in this photo?", "What drew your eye to the lighthouse in this photo?", "en", true),
        ("How did you feel about the market and the spices?", "Who first showed you the harbor and its boats?", "en", false),
        ("What drew your eye to the spices in this photo?", "What sound do you remember from the harbor that morning?", "en", false),
        ("¿Qué sentiste al ver el mercado aquella tarde?", "¿Qué sentiste al ver el puerto aquella mañana?", "es", true),
        ("¿Qué sentiste al ver el mercado aquella tarde?", "¿Con quién caminaste hasta el faro aquella mañana?", "es", false),
        ("Was hast du gefühlt, als du den Markt gesehen hast?", "Was hast du gefühlt, als du den Hafen gesehen hast?", "de", true),
        ("Was hast du gefühlt, als du den Markt gesehen hast?", "Wer hat dir den Leuchtturm zum ersten Mal gezeigt?", "de", false),
        ("市場を見たとき、どんな気持ちでしたか？", "港を見たとき、どんな気持ちでしたか？", "ja", true),
        ("市場を見たとき、どんな気持ちでしたか？", "その朝、船の音はどんな思い出を運んできましたか？", "ja", false),
        ("看到市场的时候，你有什么感受？", "看到港的时候，你有什么感受？", "zh-Hans", true),
        ("看到市场的时候，你有什么感受？", "那天早上是谁陪你走到灯塔的？", "zh-Hans", false),
        // The photo's words as the app sends them, in Latin letters inside a Japanese card.
        ("spicesについて、今あなたが感謝していることは何ですか？", "boatsについて、今あなたが感謝していることは何ですか？", "ja", true),
        ("spicesについて、今あなたが感謝していることは何ですか？", "boatsのまわりで、どんな音や香りがしていましたか？", "ja", false),
    ]

    static let angles = Result { try Angles.Catalog.load(from: repositoryPromptsDirectory, only: nil) }

    static func history(_ cards: [(text: String, photo: PhotoMetadata)], language: LanguageTag, from start: Date) -> SeenHistory {
        SeenHistory(
            cards.enumerated().map { index, card in
                SeenPrompt(
                    Prompt(id: "p_\(index)", text: card.text, wordCount: 9, source: .model),
                    language: language,
                    shownAt: start.addingTimeInterval(Double(index) * 3600),
                    photo: PromptSignature(photo: card.photo, language: language)
                )
            }
        )
    }

    @Test("A frame met about another photo is held across the month", arguments: monthPairs.indices)
    func monthPair(index: Int) throws {
        let (shown, next, locale, sameFrame) = Self.monthPairs[index]
        let language = LanguageTag(locale: locale)
        let history = Self.history([(shown, Self.market)], language: language, from: .now.addingTimeInterval(-86_400))
        let seen = SeenPrompts(language: language, history: history).framing(Self.harbour, angles: try Self.angles.get().angles(for: language))
        let card = ValidPrompt(text: next, wordCount: 9)
        #expect(seen.holdsFrame(card) == sameFrame, "\(shown) / \(next)")
        // Held is not dropped: the card is shown last, after the free ones.
        #expect(!seen.contains(card), "\(next)")
    }

    @Test("A card the month holds is shown after every free card, generic ones too")
    func heldLast() throws {
        let history = Self.history(
            [("How did you feel about the market and the spices?", Self.market)],
            language: .english,
            from: .now.addingTimeInterval(-86_400)
        )
        let seen = SeenPrompts(language: .english, history: history).framing(Self.harbour, angles: try Self.angles.get().angles(for: .english))
        let cards = [
            "How did you feel about the harbor and the boats?",  // held: the market's frame, about this photo
            "What was the best part of this trip for you?",  // free, generic, no angle
            "Who first showed you the harbor and its boats?",  // free, specific, people
        ]
        let ranked = seen.ranked(cards.map { ValidPrompt(text: $0, wordCount: 9) }).map(\.text)
        #expect(ranked == [cards[2], cards[1], cards[0]])
    }

    @Test("A frame is free again once the user has met every other angle since; a history row without photo words holds only itself")
    func monthRelease() throws {
        let angles = try Self.angles.get().angles(for: .english)
        let frame = "How did you feel about the market and the spices?"
        let next = "How did you feel about the harbor and the boats?"
        // One card of each other angle, shown after the frame, in the table's own words.
        let others = [
            "What sounds and smells of the harbour stay with you?", "Who was with you at the harbour that day?",
            "What happened just before you reached the pier?", "What happened right after you left the pier?",
            "What did the pier mean to you then?", "What small detail of the pier do you notice now?",
            "What should your future self remember about this pier?", "What were you grateful for at the pier?",
            "What has changed at the pier since that day?",
        ]
        let start = Date.now.addingTimeInterval(-30 * 86_400)
        let held = SeenPrompts(
            language: .english,
            history: Self.history([(frame, Self.market)] + others.dropLast().map { ($0, Self.harbour) }, language: .english, from: start)
        )
        let card = ValidPrompt(text: next, wordCount: 9)
        #expect(held.framing(Self.harbour, angles: angles).holdsFrame(card))
        let free = SeenPrompts(
            language: .english,
            history: Self.history([(frame, Self.market)] + others.map { ($0, Self.harbour) }, language: .english, from: start)
        )
        #expect(!free.framing(Self.harbour, angles: angles).holdsFrame(card))
        // A row written before frames were kept: its photo's words are not known, so only near-duplicates are held.
        let old = SeenHistory([SeenPrompt(key: 1, signature: PromptSignature(frame, language: .english), shownAt: start)])
        #expect(!SeenPrompts(language: .english, history: old).framing(Self.harbour, angles: angles).holdsFrame(card))
    }
}
