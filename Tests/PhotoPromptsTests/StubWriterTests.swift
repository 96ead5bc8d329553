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
}
