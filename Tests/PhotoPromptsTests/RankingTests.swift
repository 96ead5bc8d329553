import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

/// The order an answer shows its cards: those that name the photo first, each of an angle not shown yet where one is
/// left, then the generic ones the same way. The expected orders are worked out by hand from the table's angles.
@Suite("An answer shows the cards that name the photo first, in different angles, then the generic ones")
struct RankingTests {
    static let harbour = PhotoMetadata(location: .init(name: "Cais do Sodré", locality: "Lisboa"), labels: ["harbor", "boats"])

    /// Each card, its angle by `prompts/angles/en.txt`, and whether it names the photo.
    static let cards: [(text: String, angle: String?, specific: Bool)] = [
        ("What was the best part of this trip for you?", nil, false),
        ("How did you feel when you first saw the harbor?", "feeling", true),
        ("How did you feel about the whole trip, looking back?", "feeling", false),
        ("What sounds do you remember from that morning?", "senses", false),
        ("Who was with you on the boats that morning?", "people", true),
    ]

    static func seen(showing shown: [String] = []) throws -> SeenPrompts {
        let angles = try Angles.Catalog.load(from: repositoryPromptsDirectory, only: nil).angles(for: .english)
        var seen = SeenPrompts(language: .english).framing(Self.harbour, angles: angles)
        for text in shown { seen.insert(text: text, repeatKey: PromptNormalizer.repeatKey(text)) }
        return seen
    }

    @Test("The table's angles are the cards' angles")
    func tableAngles() throws {
        let seen = try Self.seen()
        for card in Self.cards {
            #expect(seen.angleName(of: PromptSignature(card.text, language: .english)) == card.angle, "\(card.text)")
        }
    }

    @Test("A first answer: the specific first, a new angle each, then the rest in the order given")
    func firstAnswer() throws {
        let ranked = try Self.seen().ranked(Self.cards.map { ValidPrompt(text: $0.text, wordCount: 9) }).map(\.text)
        #expect(ranked == [1, 4, 3, 0, 2].map { Self.cards[$0].text })
    }

    @Test("A refresh: a card that names the photo comes before a generic one of an angle the session has not shown")
    func refreshSpecificFirst() throws {
        let seen = try Self.seen(showing: ["Who first taught you to love the sea?", "How did you feel on the drive home?"])
        let ranked = seen.ranked(Self.cards.map { ValidPrompt(text: $0.text, wordCount: 9) }).map(\.text)
        #expect(ranked == [1, 4, 3, 0, 2].map { Self.cards[$0].text })
    }

    @Test("A refresh: of the cards that name the photo, the one of an angle the session has not shown comes first")
    func refreshNewAngleAmongSpecific() throws {
        let seen = try Self.seen(showing: ["How did you feel on the drive home?"])
        let ranked = seen.ranked(Self.cards.map { ValidPrompt(text: $0.text, wordCount: 9) }).map(\.text)
        #expect(ranked == [4, 1, 3, 0, 2].map { Self.cards[$0].text })
    }
}
