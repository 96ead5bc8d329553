import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import StubModel
import Testing

/// The stub model stands in for a good one in tests and `make run`: it writes the number of questions asked, each
/// different, whatever the photo.
@Suite("The stub writes as many different questions as asked")
struct StubWriterTests {
    /// Photos whose pools hold 19 to 48 questions, 21 of them (people only) a multiple of the stride the stub steps by.
    @Test(
        "Six questions asked, six different ones written",
        arguments: [
            "", "people_count: 2", "labels: dog", "labels: dog, ball\nplace: Lisboa\npeople_count: 3",
            "labels: harbor, boats, lighthouse\nplace: Lisboa\npeople_count: 2",
        ]
    )
    func sixDifferent(facts: String) {
        let questions = StubPromptWriter.questions(system: "Write 6 questions.", user: "<photo>\n\(facts)\n</photo>")
        #expect(questions.count == 6, "\(questions)")
        #expect(Set(questions).count == 6)
    }

    @Test("Like a model that follows its instructions, it writes one question per frame, and none of a frame shown")
    func oneQuestionPerFrame() {
        let user = "<photo>\nlabels: harbor, boats\n</photo>\nAlready asked, do not repeat:\n- What drew your eye to the harbor in this photo?"
        let questions = StubPromptWriter.questions(system: "Write 30 questions.", user: user)
        #expect(questions.count == 26, "7 label frames of 8 left, and 19 general")
        #expect(!questions.contains { $0.hasPrefix("What drew your eye to the") })
        #expect(questions.count { $0.hasPrefix("If the ") && $0.hasSuffix(" could talk, what would it say about this day?") } == 1)
    }

    @Test("For a photo with labels, a place and people it writes at least 30 frames in English, of every angle")
    func framesAndAngles() throws {
        let user = "<photo>\nlabels: harbor, boats, lighthouse\nplace: Lisboa\npeople_count: 2\n</photo>"
        let questions = StubPromptWriter.questions(system: "Write 60 questions.", user: user)
        #expect(questions.count >= 30, "one question per frame")
        let angles = try Angles.Catalog.load(from: repositoryPromptsDirectory, only: nil).angles(for: .english)
        let met = Set(questions.compactMap { angles.name(of: PromptSignature($0, language: .english)) })
        #expect(met == Set(angles.all.map(\.name)), "angles never written: \(Set(angles.all.map(\.name)).subtracting(met))")
    }
}
