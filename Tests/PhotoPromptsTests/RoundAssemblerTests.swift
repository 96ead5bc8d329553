import Foundation
import PromptDomain
import PromptGeneration
import PromptTemplates
import Testing

/// Three cards from a generation: unseen model cards first, the fallbacks filling what is missing, and a reason that
/// says why the fallbacks are there.
@Suite("A round of three from a generation")
struct RoundAssemblerTests {
    static let cards = [
        "What did the harbour sound like when the boats came in?",
        "Who was the first person you told about this trip?",
        "Which small detail of this morning do you want to keep?",
    ]
    static let copy = ["What happened in this moment?", "How did this make you feel?", "What do you want to remember about today?"]

    static func assembler() throws -> RoundAssembler {
        RoundAssembler(fallbacks: try FallbackPrompts(texts: Self.copy), now: Date())
    }

    static var generation: Generation {
        .prompts(Self.cards.map { ValidPrompt(text: $0, wordCount: WordCounter.count($0)) }, from: .model)
    }

    @Test("Model cards the user has all met (taken by a concurrent refresh): the copy, as all_seen, not invalid_output")
    func metCardsAreAllSeen() throws {
        let round = try Self.assembler().draft(
            from: Self.generation,
            seen: SeenPrompts(language: .english),
            alsoShown: Set(Self.cards.map(PromptNormalizer.repeatKey))
        )
        #expect(round.source == .fallback)
        #expect(round.fallbackReason == .allSeen)
        #expect(round.prompts.map(\.text) == Self.copy)
    }

    @Test("One card met: the two others, then one line of the copy, with no reason for a whole-answer fallback")
    func oneMetCardIsFilled() throws {
        let round = try Self.assembler().draft(
            from: Self.generation,
            seen: SeenPrompts(language: .english),
            alsoShown: [PromptNormalizer.repeatKey(Self.cards[1])]
        )
        #expect(round.source == .model)
        #expect(round.fallbackReason == nil)
        #expect(round.prompts.map(\.text) == [Self.cards[0], Self.cards[2], Self.copy[0]])
    }
}
