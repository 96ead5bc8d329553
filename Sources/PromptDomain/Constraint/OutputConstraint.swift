/// What the model is asked to write, in the terms the gate and the word rule accept: `items` questions, each one
/// line within the language's word range, ending with the script's question mark.
///
/// Backends turn it into the strongest constraint their provider takes: a GBNF grammar (``PromptGrammar``) or a JSON
/// schema (``PromptListSchema``). It shapes the text, not its truth: the gate still judges every word.
public struct OutputConstraint: Sendable, Equatable {
    public var items: Int
    public var language: LanguageTag
    /// The word rule the gate applies: counting and range.
    public var wordRule: WordRule
    /// The words a question may open with (`prompts/openers/<language>.txt`); empty leaves the first word free.
    public var openers: [String]
    /// Whether words may hold an inner apostrophe or hyphen ("qu'as-tu"): where the language's examples do.
    public var joinsWords: Bool
    /// The photo's labels and place names, as the app wrote them, that a line may be made to name.
    public var details: [String]
    /// How many of the `items` lines name one of `details` (the last ones): a small model asked to refer to the photo
    /// mostly does not, and one whose line must hold a detail writes the rest of the line around it.
    public var namingLines: Int

    public init(
        items: Int,
        language: LanguageTag,
        wordRule: WordRule,
        openers: [String] = [],
        joinsWords: Bool = false,
        details: [String] = [],
        namingLines: Int = 0
    ) {
        self.items = items
        self.language = language
        self.wordRule = wordRule
        self.openers = openers
        self.joinsWords = joinsWords
        self.details = details
        self.namingLines = namingLines
    }

    /// Whether words are separated by spaces; otherwise (Japanese, Chinese, Thai) the length is bounded in characters.
    package var spacesWords: Bool {
        if case .spaces = wordRule.counting { return true }
        return false
    }

    /// Characters a question may have where words are not spaced: one per ICU word at least, and at most the
    /// language's measured characters per word (``CalibratedWordRanges/charactersPerWord``) at the range's top, so
    /// the grammar neither forbids what the word rule accepts nor lets a model run far past it.
    package var characterRange: ClosedRange<Int> {
        let perWord = CalibratedWordRanges.charactersPerWord[language.language] ?? 2
        return wordRule.range.lowerBound...(wordRule.range.upperBound * perWord)
    }

    /// Characters a question may have in a JSON schema's `minLength`/`maxLength`: three to eight per word where
    /// words are spaced (24–120 for English's 8–15 words, which run 35–100 characters), else ``characterRange``.
    package var itemLengthRange: ClosedRange<Int> {
        spacesWords ? (wordRule.range.lowerBound * 3)...(wordRule.range.upperBound * 8) : characterRange
    }

    package var questionMark: String {
        switch language.language {
        case "ja", "zh", "yue": "？"
        case "ar", "fa", "ur": "؟"
        default: "?"
        }
    }

    /// A token budget for the whole reply: enough for every item at the longest the rule allows, so a reply is cut
    /// only when the model runs past what it was asked for (a reply cut at the limit keeps its complete items).
    public var maxTokens: Int {
        // Measured with SmolLM2's and Gemma's tokenizers: at most 2 tokens per English word, 3 per word in accented
        // Latin, Arabic or Hangul text, 3 per ICU word in Japanese, Chinese or Thai; plus the line's end.
        let perWord = language.language == "en" ? 2 : 3
        return items * (wordRule.range.upperBound * perWord + 4)
    }
}
