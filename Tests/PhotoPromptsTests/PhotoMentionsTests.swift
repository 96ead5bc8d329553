import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import Testing

@Suite("Prompts that name the photo come first", .dictionariesOpened)
struct PhotoMentionsTests {
    let beach = PhotoMetadata(
        location: .init(name: "Praia da Rocha", locality: "Portimão", country: "Portugal"),
        labels: ["beach", "sunset"],
        peopleCount: 2
    )

    @Test(
        "A detail is the place, a label (or its plural) or, with people in the photo, the people",
        arguments: [
            ("What did the sunsets at Praia da Rocha mean to you that summer?", true),
            ("Which beaches near Portimão did you swim at with your family that week?", true),
            ("Who stood next to you when this picture was taken that evening?", true),
            ("What would you like to remember about this moment years from now?", false),
            ("How did the sunsetting sky make you feel as the day ended there?", false),
        ]
    )
    func mentions(text: String, names: Bool) {
        #expect(PhotoMentions(beach, language: .english).mentioned(in: text) == names)
    }

    @Test("Where words are not spaced, a detail is named anywhere in the card: its place in its own script")
    func unspacedLanguages() {
        let kyoto = PhotoMetadata(location: .init(name: "清水寺", locality: "京都市", country: "日本"), labels: ["temple"])
        #expect(PhotoMentions(kyoto, language: LanguageTag(locale: "ja")).mentioned(in: "清水寺で誰と一緒に桜を見ましたか？"))
        #expect(PhotoMentions(kyoto, language: LanguageTag(locale: "zh-Hans")).mentioned(in: "在京都市的那一天，你最想记住什么？"))
        #expect(!PhotoMentions(kyoto, language: LanguageTag(locale: "ja")).mentioned(in: "その日の朝、何を楽しみにしていましたか？"))
        // The same card, read as if words were spaced, names nothing: the place is glued to its particle.
        #expect(!PhotoMentions(kyoto, language: .english).mentioned(in: "清水寺で誰と一緒に桜を見ましたか？"))
    }

    @Test("People words count only when the photo has people")
    func peopleOnlyWithPeople() {
        let empty = PhotoMetadata(labels: ["sofa"])
        #expect(!PhotoMentions(empty, language: .english).mentioned(in: "Who was sitting beside you on that quiet afternoon at home?"))
        #expect(PhotoMentions(empty, language: .english).mentioned(in: "What was the story behind that old sofa in the living room?"))
        #expect(!PhotoMentions(PhotoMetadata(), language: .english).hasDetails)
    }

    @Test("The validator shows the prompts naming a detail first, each part in the model's order")
    func validatorRanks() {
        var validator = PromptValidator()
        validator.photoMentions = PhotoMentions(beach, language: .english)
        let generic = [
            "What would you like to remember about this moment years from now?",
            "How did you feel on the day this picture was taken, looking back?",
        ]
        let naming = [
            "What sound did the waves make on the beach as the sun went down?",
            "Which song would you play to remember that sunset with your friends?",
        ]
        let kept = validator.validate([generic[0], naming[0], generic[1], naming[1]]).kept.map(\.text)
        #expect(kept == naming + generic)
        // Without the photo, the model's order stands.
        #expect(PromptValidator().validate([generic[0], naming[0]]).kept.map(\.text) == [generic[0], naming[0]])
    }
}
