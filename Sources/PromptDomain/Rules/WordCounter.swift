/// Counts words the way the product spec means them.
///
/// A word is a maximal run of non-whitespace characters containing at least one letter or digit, so
/// "sun-kissed" and "don't" count once and a lone "—", "…" or emoji counts not at all.
public enum WordCounter {
    /// The number of words in `text`.
    public static func count(_ text: some StringProtocol) -> Int {
        var tally = Tally()
        for character in text { tally.add(character) }
        return tally.words
    }

    /// The count as a walk adds one character at a time, so a walk that reads the characters for other reasons
    /// (``LineAnalysis``) counts in the same pass.
    package struct Tally {
        package private(set) var words = 0
        private var counted = false

        package init() {}

        package mutating func add(_ character: Character) {
            if character.isWhitespace {
                counted = false
            } else if !counted, character.isLetter || character.isNumber {
                words += 1
                counted = true
            }
        }
    }
}
