/// Which of the gate's checks a template applies, from the `gate` object of its `settings.json`.
///
/// Every check is on by default; an operator relaxes one for a template whose model needs it: English accepted for
/// every locale while an English-only model is tried, or real words off for a product name dictionaries lack.
public struct GateRules: Sendable, Equatable {
    /// Reject a candidate in another language than the user's (`wrong_language`).
    public var language: Bool
    /// Languages accepted for every locale besides the user's own, as primary subtags (`en`).
    public var acceptedLanguages: [String]
    /// Reject placeholders such as `[name]` or `{{place}}` (`placeholder`).
    public var placeholders: Bool
    /// Reject text about the conversation instead of the photo (`assistant_chatter`).
    public var chatter: Bool
    /// Reject a card with two questions in it (`two_questions`).
    public var oneQuestion: Bool
    /// Reject a card with no question word or ending where the language always has one (`not_a_question`).
    public var questionWords: Bool
    /// Reject a word the language's dictionary does not know and the photo does not name (`unknown_word`).
    public var realWords: Bool
    /// Reject a number, weekday, month or name the photo's metadata does not hold (`unsupported_detail`).
    public var photoDetails: Bool
    /// Reject a line with a token the generating model scored below this natural log-probability (`disfluent`), where
    /// the provider reports them (``TokenLogprobs``); nil turns the rule off. Calibrated in docs/QUALITY.md.
    public var fluencyFloor: Double?
    public static let defaultFluencyFloor = -5.0

    public init(
        language: Bool = true,
        acceptedLanguages: [String] = [],
        placeholders: Bool = true,
        chatter: Bool = true,
        oneQuestion: Bool = true,
        questionWords: Bool = true,
        realWords: Bool = true,
        photoDetails: Bool = true,
        fluencyFloor: Double? = defaultFluencyFloor
    ) {
        self.language = language
        self.acceptedLanguages = acceptedLanguages
        self.placeholders = placeholders
        self.chatter = chatter
        self.oneQuestion = oneQuestion
        self.questionWords = questionWords
        self.realWords = realWords
        self.photoDetails = photoDetails
        self.fluencyFloor = fluencyFloor
    }
}
