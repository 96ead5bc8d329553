/// A candidate line read once, for every rule that judges it: its normalised text and repeat key, ICU's words with
/// their lower-case forms and identities, and what one walk over its characters finds.
///
/// Every rule is a predicate over this value: judging a reply had walked each line about fifteen times. Words and
/// characters are numbered so the repetition rule compares integers (hashing `String`s was most of the gate's time).
package struct LineAnalysis: Sendable {
    /// The normalised text, and its repeat key (``PromptNormalizer/repeatKey(_:)``) with the key's words.
    package let text: String
    package let key: String
    package let keyWords: [Substring]
    /// ICU's words (runs between spaces where ICU cannot run) and their lower-cased forms: the gate's words.
    package let words: [Substring]
    package let lowered: [String]
    /// Each word's identity: the index of the first word lower-cased the same.
    package let wordIDs: [Int]
    /// Whether ``words`` are ICU's: then, in a language written without spaces, their count is the word rule's.
    package let segmented: Bool
    /// Each character's identity (its scalar, or a number above Unicode's for a character of several scalars, the
    /// same for equal ones), and whether it is a letter or a symbol: the repetition rule's input.
    package let characters: [UInt32]
    package let letters: [Bool]
    package let symbols: [Bool]
    /// Whether some character stacks five or more marks on a letter ("أيًّاٌٌٌٌٌٍٍٍٍٍٍ").
    package let stacksMarks: Bool
    /// Runs between spaces with a letter or digit: the spec's count where words are spaced (``WordCounter``).
    package let spacedWordCount: Int
    /// A slot the model left unfilled: a bracket or brace (never in a question to a user), or `<` and `>` around a
    /// tag's letters (`<name>`; "<3" is not one).
    package let holdsPlaceholder: Bool
    /// How many question marks of any script the text holds (``QuestionMarks/all``); Spanish's opening `¿` is not one.
    package let questionMarks: Int
    /// Whether a ".", "@" or ":" is in the text: every link has one, and most questions have none.
    package let mayHoldLink: Bool

    /// Reads `text` (normalised) with the word rules of `locale` (a BCP 47 tag); nil `locale`: words between spaces,
    /// for a line no gate judges.
    package init(_ text: String, locale: String?) {
        self.text = text
        key = PromptNormalizer.repeatKey(text)
        keyWords = key.split(separator: " ")
        let icuWords = locale.flatMap { WordSegmenter.words(in: text, locale: $0) }
        segmented = icuWords != nil
        words = icuWords ?? text.split(whereSeparator: \.isWhitespace)
        let lowered = words.map { $0.lowercased() }
        self.lowered = lowered
        wordIDs = lowered.indices.map { index in lowered[..<index].firstIndex(of: lowered[index]) ?? index }

        var tally = WordCounter.Tally()
        var (codes, letters, symbols) = ([UInt32](), [Bool](), [Bool]())
        var clusters: [Character] = []
        var (placeholder, afterAngle, link, stacked) = (false, false, false, false)
        for character in text {
            let kind = CharacterKind(character)
            let (first, single) = (kind.first, kind.single)
            tally.add(kind)
            codes.append(single ? first : Self.clusterCode(character, in: &clusters))
            letters.append(kind.isLetter)
            symbols.append(kind.isSymbol)
            if !single, character.unicodeScalars.count(where: \.properties.generalCategory.isMark) >= 5 { stacked = true }
            // ASCII punctuation compared as scalars: comparing `Character`s goes through string comparison.
            let ascii = single ? first : 0
            if ascii == 0x2E || ascii == 0x40 || ascii == 0x3A { link = true }
            if ascii == 0x5B || ascii == 0x5D || ascii == 0x7B || ascii == 0x7D { placeholder = true }
            if afterAngle, single, first == 0x3E || first == 0x203A { placeholder = true }
            if single, first == 0x3C || first == 0x2039 {
                afterAngle = true
            } else if afterAngle, !(kind.isLetter || ascii == 0x5F || ascii == 0x2F || ascii == 0x2D) {
                afterAngle = false
            }
        }
        (characters, self.letters, self.symbols) = (codes, letters, symbols)
        (holdsPlaceholder, mayHoldLink, stacksMarks) = (placeholder, link, stacked)
        spacedWordCount = tally.words
        questionMarks = text.unicodeScalars.count { QuestionMarks.all.contains($0.value) }
    }

    /// A number above Unicode's scalars for a character of several, the same for equal ones within the line.
    private static func clusterCode(_ character: Character, in clusters: inout [Character]) -> UInt32 {
        let index = clusters.firstIndex(of: character) ?? clusters.count
        if index == clusters.count { clusters.append(character) }
        return 0x11_0000 + UInt32(index)
    }
}
