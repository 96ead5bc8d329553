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
        #expect(PhotoMentions(beach).mentioned(in: text) == names)
    }

    @Test("People words count only when the photo has people")
    func peopleOnlyWithPeople() {
        let empty = PhotoMetadata(labels: ["sofa"])
        #expect(!PhotoMentions(empty).mentioned(in: "Who was sitting beside you on that quiet afternoon at home?"))
        #expect(PhotoMentions(empty).mentioned(in: "What was the story behind that old sofa in the living room?"))
        #expect(!PhotoMentions(PhotoMetadata()).hasDetails)
    }

    @Test("The validator shows the prompts naming a detail first, each part in the model's order")
    func validatorRanks() {
        var validator = PromptValidator()
        validator.photoMentions = PhotoMentions(beach)
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
