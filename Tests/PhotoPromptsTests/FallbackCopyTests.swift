import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

@testable import PhotoPrompts

/// The fallback copy lasts a session: a user the model cannot serve refreshes five times and meets no card twice,
/// and every card the copy adds to the spec's three is one the gate would show from a model.
@Suite("The fallback copy: eighteen different cards in every shipped language", .dictionariesOpened)
struct FallbackCopyTests {
    static let catalog = try! CopyCatalog.load(from: repositoryPromptsDirectory)
    static let chatter = try! ChatterPhrases.load(from: repositoryPromptsDirectory)
    static let knownWords = try! KnownWords.load(from: repositoryPromptsDirectory)

    /// A photo with nothing to name: the copy is written for every photo.
    static let photo = PhotoMetadata()

    static var locales: [String] { catalog.locales }

    @Test("Each language holds at least 18 fallbacks, the spec's three first", arguments: locales)
    func eighteenOrMore(locale: String) {
        let copy = Self.catalog.copy(for: LanguageTag(locale)!)
        #expect(copy.fallbacks.texts.count >= 18)
        #expect(copy.fallbacks.texts.count >= ProductSpec.promptsPerAnswer * 6, "a first answer and five refreshes")
        if locale == "en" {
            #expect(
                Array(copy.fallbacks.texts.prefix(3))
                    == ["What happened in this moment?", "How did this make you feel?", "What do you want to remember about today?"]
            )
        }
    }

    @Test("Every fallback after the spec's three passes the gate and the word rule of its language", arguments: locales)
    func addedCardsPassTheGate(locale: String) async {
        let language = LanguageTag(locale)!
        let validator = PromptValidator(
            wordRule: .for(language),
            checks: PromptChecks(mustEndWithQuestionMark: true),
            gate: PromptGate(
                language: language,
                photo: Self.photo,
                chatter: Self.chatter,
                knownWords: Self.knownWords,
                dictionaries: testDictionaries
            )
        )
        let added = Array(Self.catalog.copy(for: language).fallbacks.texts.dropFirst(3))
        let validation = await offThePool { validator.validate(added) }
        #expect(validation.rejected.isEmpty, "\(validation.rejected.map { "\($0.candidate): \($0.reason)" })")
    }

    @Test("No two fallbacks of a language are the same question, exactly or nearly", arguments: locales)
    func noTwoAlike(locale: String) {
        let language = LanguageTag(locale)!
        let texts = Self.catalog.copy(for: language).fallbacks.texts
        var alike: [String] = []
        for (index, first) in texts.enumerated() {
            for second in texts.dropFirst(index + 1) {
                let same = PromptNormalizer.repeatKey(first) == PromptNormalizer.repeatKey(second)
                if same || PromptSignature(first, language: language).isNearDuplicate(of: PromptSignature(second, language: language)) {
                    alike.append("\(first) ~ \(second)")
                }
            }
        }
        #expect(alike.isEmpty, "\(alike)")
    }

    @Test("A user who has met every card goes round the copy: those shown longest ago come back first")
    func reuseOldestFirst() {
        let texts = Self.catalog.english.fallbacks.texts
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        // Shown in the copy's order, one card a day, except the first three, shown last.
        let order = Array(texts.dropFirst(3)) + Array(texts.prefix(3))
        let history = order.enumerated().map { day, text in
            SeenPrompt(
                key: SeenPrompt.key(PromptNormalizer.repeatKey(text)),
                signature: PromptSignature(text, language: .english),
                shownAt: start.addingTimeInterval(Double(day) * 86_400)
            )
        }
        let picked = Self.catalog.english.fallbacks.pick(3, avoiding: SeenPrompts(language: .english, history: SeenHistory(history)))
        #expect(picked.map(\.text) == Array(order.prefix(3)))
    }

    @Test("Every language's fallbacks, its lines with the photo's place among them, are of different frames", arguments: locales)
    func fallbacksAreOfDifferentFrames(locale: String) async {
        let language = LanguageTag(locale)!
        let copy = Self.catalog.copy(for: language)
        let kyoto = PhotoMetadata(location: .init(name: "Kyoto"))
        let context = TemplateContext(photo: kyoto, locale: language, candidateCount: 3, now: Date())
        let validator = PromptValidator(wordRule: .for(language), checks: PromptChecks(mustEndWithQuestionMark: true))
        let placeLines = await offThePool { copy.photoFallbacks.rendered(for: context, validator: validator).map(\.text) }
        let lines = (placeLines + copy.fallbacks.texts).map { ValidPrompt(text: $0, wordCount: 10) }
        let kept = SeenPrompts(language: language).framing(kyoto, angles: .none).fresh(lines)
        #expect(kept.count == lines.count, "\(Set(lines.map(\.text)).subtracting(kept.map(\.text)))")
    }

    @Test("Every language's lines with the photo's place, rendered for a photo of Kyoto, pass its gate and word rule", arguments: locales)
    func photoLinesPassTheGate(locale: String) async {
        let language = LanguageTag(locale)!
        let copy = Self.catalog.copy(for: language)
        let kyoto = PhotoMetadata(location: .init(name: "Kyoto"))
        let validator = PromptValidator(
            wordRule: .for(language),
            checks: PromptChecks(mustEndWithQuestionMark: true),
            gate: PromptGate(language: language, photo: kyoto, chatter: Self.chatter, knownWords: Self.knownWords, dictionaries: testDictionaries)
        )
        let context = TemplateContext(photo: kyoto, locale: language, candidateCount: 3, now: Date())
        let rendered = await offThePool { copy.photoFallbacks.rendered(for: context, validator: validator) }
        // English's photo-aware lines are a template's own (fallbacks.txt): its copy is the spec's, verbatim.
        #expect(rendered.count >= (language == .english ? 0 : 2))
        for line in rendered {
            #expect(line.text.contains("Kyoto"))
            #expect(line.validation.rejected.isEmpty, "\(line.text): \(line.validation.rejected.map(\.reason))")
        }
        // Without a place, none is used.
        #expect(
            copy.photoFallbacks.usable(
                for: TemplateContext(photo: PhotoMetadata(), locale: language, candidateCount: 3, now: Date()),
                validator: validator
            ).isEmpty
        )
    }
}
