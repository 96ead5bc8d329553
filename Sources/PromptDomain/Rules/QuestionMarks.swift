/// What ends a question in the scripts the app ships: `?`, full-width `？` (Chinese, Japanese), Arabic `؟`, the Greek
/// question mark (U+037E, and the semicolon it is canonically equal to, at the end of Greek text), Armenian `՞` and
/// Ethiopic `፧`.
package enum QuestionMarks {
    /// The marks that end a question in any script, as scalars: Swift's `Character` equality is canonical, and the
    /// Greek question mark U+037E is canonically equal to ";", which ends no English question.
    package static let all: Set<UInt32> = [0x003F, 0xFF1F, 0x061F, 0x037E, 0x055E, 0x1367]

    /// Whether `text` ends with a question mark of its script.
    package static func endsQuestion(_ text: some StringProtocol) -> Bool {
        guard let last = text.unicodeScalars.last else { return false }
        if all.contains(last.value) { return true }
        // Greek keyboards type ";" for the question mark: it counts where the text before it is Greek.
        return last == ";" && text.dropLast().last(where: \.isLetter).map(isGreek) == true
    }

    /// How many question marks `text` holds: two make two questions in one card (Spanish's opening `¿` is not one).
    package static func count(in text: some StringProtocol) -> Int {
        text.unicodeScalars.count { all.contains($0.value) }
    }

    private static func isGreek(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { (0x0370...0x03FF).contains($0.value) || (0x1F00...0x1FFF).contains($0.value) }
    }
}
