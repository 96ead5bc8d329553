/// How a language's words are counted, and how many a prompt in it may have.
///
/// The spec's "8–15 words" is English's. Spaced languages count runs holding a letter or digit (``WordCounter``);
/// unspaced ones (Japanese, Chinese, Thai, Lao, Khmer, Burmese) count ICU's words (``WordSegmenter``). Ranges are
/// calibrated to one question length (``CalibratedWordRanges``); `settings.json` may override them (`word_ranges`).
public struct WordRule: Sendable, Equatable {
    public enum Counting: Sendable, Equatable {
        case spaces
        /// ICU's dictionary-based word segmenter, with the rules of this locale.
        case segmenter(locale: String)
    }

    public var counting: Counting
    public var range: ClosedRange<Int>

    public init(counting: Counting = .spaces, range: ClosedRange<Int> = CalibratedWordRanges.english) {
        self.counting = counting
        self.range = range
    }

    /// The spec's rule for English: 8 to 15 words between spaces.
    public static let english = WordRule()

    /// The rule for text in `language`: its counting, and its range from `overrides` (a template's `word_ranges`,
    /// by primary language subtag) or else the calibrated table; English's range for a language not in either.
    public static func `for`(_ language: LanguageTag, overrides: [String: ClosedRange<Int>] = [:]) -> WordRule {
        let code = language.language
        let counting: Counting = CalibratedWordRanges.segmentedLanguages.contains(code) ? .segmenter(locale: language.description) : .spaces
        let range = overrides[code] ?? CalibratedWordRanges.byLanguage[code] ?? CalibratedWordRanges.english
        return WordRule(counting: counting, range: range)
    }

    /// The number of words of a line read with ``segmenterLocale`` (or with the gate's locale, which is the same).
    package func count(_ line: LineAnalysis) -> Int {
        if case .segmenter = counting, line.segmented { return line.words.count }
        return line.spacedWordCount
    }

    /// The locale ICU segments with under this rule; nil where words are counted between spaces.
    package var segmenterLocale: String? {
        if case .segmenter(let locale) = counting { return locale }
        return nil
    }

    public func count(_ text: some StringProtocol) -> Int {
        switch counting {
        case .spaces:
            return WordCounter.count(text)
        case .segmenter(let locale):
            // Without ICU's data the segmenter cannot run; counting spaces then keeps the service answering.
            return WordSegmenter.countWords(in: text, locale: locale) ?? WordCounter.count(text)
        }
    }
}
