/// A candidate line read once, for every rule that judges it: its normalised text and repeat key, ICU's words with
/// their lower-case forms, and what one walk over its characters finds.
///
/// The word rule, the template's checks and each rule of the gate are predicates over this value, so none of them
/// tokenises the line again: profiled, judging a reply walked each line about fifteen times, once per rule.
package struct LineAnalysis: Sendable {
    /// The normalised text, and its repeat key (``PromptNormalizer/repeatKey(_:)``) with the key's words.
    package let text: String
    package let key: String
    package let keyWords: [Substring]
    /// ICU's words of the text under the language's rules (runs between spaces where ICU cannot run), each also
    /// lower-cased: the gate's words.
    package let words: [Substring]
    package let lowered: [String]
    /// Whether ``words`` are ICU's: then, in a language written without spaces, their count is the word rule's.
    package let segmented: Bool
    /// The characters, for the repetition rule's windows.
    package let characters: [Character]
    /// Runs between spaces that hold a letter or a digit: the spec's count where a language spaces its words
    /// ("sun-kissed" and "don't" count once, a lone "—" or emoji not at all).
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
        lowered = words.map { $0.lowercased() }
        characters = Array(text)
        var spaced = WordCounter.Tally()
        var placeholder = false
        var afterAngle = false
        var link = false
        for character in characters {
            spaced.add(character)
            if character == "." || character == "@" || character == ":" { link = true }
            if character == "[" || character == "]" || character == "{" || character == "}" { placeholder = true }
            if afterAngle, character == ">" || character == "›" { placeholder = true }
            if character == "<" || character == "‹" {
                afterAngle = true
            } else if afterAngle, !(character.isLetter || character == "_" || character == "/" || character == "-") {
                afterAngle = false
            }
        }
        spacedWordCount = spaced.words
        holdsPlaceholder = placeholder
        mayHoldLink = link
        questionMarks = text.unicodeScalars.count { QuestionMarks.all.contains($0.value) }
    }
}
