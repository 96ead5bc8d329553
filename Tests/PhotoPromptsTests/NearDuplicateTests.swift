import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import PromptTemplates
import Testing

@testable import PhotoPrompts

/// Near-duplicates are repeats: the rule is measured on pairs a user would call the same and on good questions
/// that are not, in every shipped language, and holds to the rates docs/QUALITY.md states.
@Suite("Near-duplicates: the same question in other small words, word forms, numbers, dates or spellings")
struct NearDuplicateTests {
    static let catalog = try! CopyCatalog.load(from: repositoryPromptsDirectory)

    typealias Pair = (locale: String, first: String, second: String)

    static var differentPairs: [Pair] {
        let copyPairs = catalog.locales.flatMap { locale in
            NearDuplicatePairs.pairs(of: catalog.copy(for: LanguageTag(locale)!).fallbacks.texts).map { (locale, $0.0, $0.1) }
        }
        return NearDuplicatePairs.referencePairs + copyPairs + NearDuplicatePairs.closeButDifferent
    }

    /// Each pair's similarity, worked out once for every threshold tried. It yields between pairs: the fast layer
    /// runs in parallel on two cores, and the deadline tests' watch must get its turn.
    static func similarities(_ pairs: [Pair]) async -> [Double] {
        var similarities: [Double] = []
        for pair in pairs {
            let language = LanguageTag(pair.locale)!
            let first = PromptSignature(pair.first, language: language)
            similarities.append(first.terms.isEmpty ? 0 : first.similarity(to: PromptSignature(pair.second, language: language)))
            await Task.yield()
        }
        return similarities
    }

    @Test("The rates at the chosen threshold: every same pair caught, under 2 % of different pairs taken for repeats")
    func ratesAtTheThreshold() async {
        let same = NearDuplicatePairs.same
        let different = Self.differentPairs
        let (sameSimilarities, differentSimilarities) = (await Self.similarities(same), await Self.similarities(different))
        let threshold = PromptSignature.threshold
        let missed = zip(same, sameSimilarities).filter { $0.1 < threshold }.map(\.0)
        let falsePositives = zip(different, differentSimilarities).filter { $0.1 >= threshold }.map(\.0)
        let rate = Double(falsePositives.count) / Double(different.count)
        print(
            "near-duplicates at \(PromptSignature.threshold): caught \(same.count - missed.count) of \(same.count) same pairs; "
                + "\(falsePositives.count) of \(different.count) different pairs taken for repeats (\(rate * 100) %)"
        )
        for threshold in stride(from: 0.5, through: 1.0, by: 0.05) {
            let caught = sameSimilarities.count { $0 >= threshold }
            let wrong = differentSimilarities.count { $0 >= threshold }
            print("  threshold \(threshold): same \(caught)/\(same.count), different taken \(wrong)/\(different.count)")
        }
        #expect(missed.isEmpty, "\(missed)")
        print("  taken for repeats: \(falsePositives)")
        #expect(rate < 0.02, "\(falsePositives)")
    }

    @Test("Every shipped language has same pairs and different pairs in the tables")
    func everyLanguageIsMeasured() {
        let locales = Set(Self.catalog.locales)
        #expect(Set(NearDuplicatePairs.same.map(\.locale)) == locales)
        #expect(locales.isSubset(of: Set(Self.differentPairs.map(\.locale))))
    }

    @Test("A signature kept in the history reads back equal, and its bytes hold none of the prompt's words")
    func storedForm() throws {
        let signature = PromptSignature("What did the harbor smell like that morning in Boston?", language: .english)
        // The second card names its photo: bits 0 and 2 mark its photo's terms, and a third card follows it.
        let packed = SeenHistory.packed([
            SeenPrompt(key: 7, signature: signature, shownAt: .now),
            SeenPrompt(key: 8, signature: signature, shownAt: .now, photoTerms: 0b101),
            SeenPrompt(key: 9, signature: signature, shownAt: .now),
        ])
        var history = SeenHistory()
        packed.withUnsafeBytes { history.append(packed: $0, shownAt: .distantPast) }
        #expect(history.map(\.signature) == [signature, signature, signature] && history.map(\.key) == [7, 8, 9])
        #expect(history.map(\.photoTerms) == [0, 0b101, 0])
        let bytes = String(decoding: packed, as: UTF8.self).lowercased()
        #expect(!bytes.contains("boston") && !bytes.contains("harbor"))
    }

    @Test("A question of small words only is a repeat of itself alone")
    func smallWordsOnly() {
        let bare = PromptSignature("What is this?", language: .english)
        #expect(bare.terms.count == 1)
        #expect(!PromptSignature("Is this it?", language: .english).isNearDuplicate(of: bare))
    }

    /// Pairs a reader meets as one question worded twice (a word or two apart), and pairs as close in topic that are
    /// three or more words apart, or short and two apart, in the shipped languages' scripts; counted here by hand.
    static let rewordings: [(locale: String, first: String, second: String, reworded: Bool)] = [
        ("en", "What was the most unforgettable experience you have had?", "What was the most remarkable experience you have had?", true),
        ("en", "What was the most unforgettable experience you have had?", "What was the most wonderful moment you have had?", true),
        ("en", "How did you feel when you arrived at the harbor?", "How did you feel when you first arrived at the old harbor?", true),
        ("en", "What did you eat at the beach that day?", "Who did you meet on the beach that morning?", false),
        ("en", "What did you want to remember most about this?", "What did you want to forget about this place?", false),
        ("en", "What happened in this moment?", "What did you feel in this moment?", false),
        ("es", "¿Qué sentiste al ver el puerto aquella mañana?", "¿Qué pensaste al ver el puerto aquella tarde?", true),
        ("de", "Was hast du gefühlt, als du den Hafen gesehen hast?", "Was hast du gedacht, als du den Hafen gesehen hast?", true),
        ("fr", "Quelle musique écoutiez-vous pendant ce voyage à Montréal ?", "Quelle musique aimiez-vous pendant ce voyage à Montréal ?", true),
        ("ko", "이 해변에서 누구에게 수영을 배웠나요?", "이 해변에서 누구에게 노래를 배웠나요?", true),
        ("ko", "이 해변에서 누구에게 수영을 배웠나요?", "이 해변에서 누구와 함께 수영했나요?", false),
        ("ar", "ماذا شعرت عندما رأيت الميناء في ذلك الصباح؟", "ماذا شعرت عندما رأيت القوارب في ذلك الصباح؟", true),
        ("ar", "ماذا حدث في هذه اللحظة؟", "بماذا شعرت في هذه اللحظة؟", false),
        ("hi", "उस सुबह बंदरगाह देखकर आपको कैसा लगा था?", "उस सुबह नावें देखकर आपको कैसा लगा था?", true),
        ("ja", "港を見たとき、どんな気持ちでしたか？", "灯台を見たとき、どんな気持ちでしたか？", true),
        ("ja", "港を見たとき、どんな気持ちでしたか？", "その朝、船の音はどんな思い出を運んできましたか？", false),
        ("zh-Hans", "看到港的时候，你有什么感受？", "看到灯塔的时候，你有什么感受？", true),
        ("zh-Hans", "看到港的时候，你有什么感受？", "那天早上是谁陪你走到灯塔的？", false),
    ]

    @Test("Cards worded a word or two apart are one question, both ways, in every script", arguments: rewordings)
    func rewording(locale: String, first: String, second: String, reworded: Bool) {
        let language = LanguageTag(locale)!
        let (one, other) = (PromptSignature(first, language: language), PromptSignature(second, language: language))
        #expect(one.isRewording(of: other) == reworded)
        #expect(other.isRewording(of: one) == reworded)
    }

    @Test("No two of a language's reference questions or fallback cards, written as different questions, are rewordings")
    func writtenQuestionsAreNoRewordings() {
        let written = Self.differentPairs.filter { pair in !NearDuplicatePairs.closeButDifferent.contains { $0 == pair } }
        let reworded = written.filter { pair in
            let language = LanguageTag(pair.locale)!
            return PromptSignature(pair.first, language: language).isRewording(of: PromptSignature(pair.second, language: language))
        }
        #expect(written.count > 2_500)
        #expect(reworded.isEmpty, "\(reworded)")
        // Of the eleven written one content word apart, the four that keep every other word in place, counted by hand.
        let close = NearDuplicatePairs.closeButDifferent.filter { pair in
            let language = LanguageTag(pair.locale)!
            return PromptSignature(pair.first, language: language).isRewording(of: PromptSignature(pair.second, language: language))
        }
        #expect(
            close.map(\.first) == [
                "What sounds do you remember from the beach that day?", "What were you celebrating with your family in Lisbon?",
                "What do you do today in Boston, United States?", "¿Qué canciones sonaban en la fiesta de Cádiz?",
            ]
        )
    }

    @Test("An answer keeps one of three cards that differ by a word, and a history row (terms only) is no rewording")
    func answerOfRewordings() {
        let cards = [
            "What was the most unforgettable experience you have had?", "What was the most remarkable experience you have had?",
            "Who taught you to swim at this beach, and when?", "What was the most wonderful experience you have had?",
        ]
        let kept = SeenPrompts(language: .english).fresh(cards.map { ValidPrompt(text: $0, wordCount: 9) })
        #expect(kept.map(\.text) == [cards[0], cards[2]])
        let stored = PromptSignature(terms: PromptSignature(cards[0], language: .english).terms)
        #expect(!PromptSignature(cards[1], language: .english).isRewording(of: stored))
    }

    @Test("Seen prompts: a session's own, and near-duplicates among candidates, are left out in order")
    func seenPromptsFilter() {
        var seen = SeenPrompts(language: .english)
        seen.insert(text: "What do you do today in Boston, United States?", repeatKey: "k1")
        let candidates = [
            ValidPrompt(text: "What did you do on Tuesday at Boston, United States?", wordCount: 11),
            ValidPrompt(text: "Who walked the Freedom Trail with you that afternoon?", wordCount: 9),
            ValidPrompt(text: "Who walked the Freedom Trail with you that evening?", wordCount: 9),
            ValidPrompt(text: "What did the harbor smell like that morning in Boston?", wordCount: 10),
        ]
        #expect(seen.fresh(candidates).map(\.text) == [candidates[1].text, candidates[3].text])
    }
}
