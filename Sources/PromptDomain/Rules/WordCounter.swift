/// Counts words the way the product spec means them: a maximal run of non-whitespace characters with a letter or
/// digit, so "sun-kissed" and "don't" count once and a lone "—", "…" or emoji not at all.
public enum WordCounter {
    public static func count(_ text: some StringProtocol) -> Int {
        var tally = Tally()
        for character in text { tally.add(CharacterKind(character)) }
        return tally.words
    }

    /// The count as a walk adds one character at a time, so a walk that reads the characters for other reasons
    /// (``LineAnalysis``) counts in the same pass.
    package struct Tally {
        package private(set) var words = 0
        private var counted = false

        package init() {}

        package mutating func add(_ kind: CharacterKind) {
            if kind.isWhitespace {
                counted = false
            } else if !counted, kind.isLetter || kind.isNumber {
                words += 1
                counted = true
            }
        }
    }
}

/// What the rules ask of a character: ASCII's answers from its scalar, the rest from Unicode's properties (each a
/// table lookup, which the judging of a line would otherwise pay several times per character).
package struct CharacterKind {
    /// The first scalar, and whether it is the only one.
    package let first: UInt32
    package let single: Bool
    package let isLetter: Bool
    package let isSymbol: Bool
    package let isNumber: Bool
    package let isWhitespace: Bool

    package init(_ character: Character) {
        let scalars = character.unicodeScalars
        first = scalars.first!.value
        single = scalars.index(after: scalars.startIndex) == scalars.endIndex
        guard single, first < 0x80 else {
            (isLetter, isSymbol, isNumber, isWhitespace) = (character.isLetter, character.isSymbol, character.isNumber, character.isWhitespace)
            return
        }
        isLetter = (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first)
        // ASCII's math, currency and modifier symbols: $ + < = > ^ ` | ~
        isSymbol = [0x24, 0x2B, 0x3C, 0x3D, 0x3E, 0x5E, 0x60, 0x7C, 0x7E].contains(first)
        isNumber = (0x30...0x39).contains(first)
        isWhitespace = first == 0x20 || (0x09...0x0D).contains(first)
    }
}
