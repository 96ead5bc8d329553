import StubModel
import Testing

/// The stub model stands in for a good one in tests and `make run`: it writes the number of questions asked, each
/// different, whatever the photo.
@Suite("The stub writes as many different questions as asked")
struct StubWriterTests {
    /// Photos whose pools hold 19 to 41 questions, 21 of them (people only) a multiple of the stride the stub steps by.
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
        #expect(questions.count == 23, "4 label frames of 5 left, and 19 general")
        #expect(!questions.contains { $0.hasPrefix("What drew your eye to the") })
        #expect(questions.count { $0.hasPrefix("If the ") && $0.hasSuffix(" could talk, what would it say about this day?") } == 1)
    }
}
