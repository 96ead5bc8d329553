import CICU

/// Counts words with ICU's word-break iterator, for languages written without spaces between words.
///
/// ICU finds words in Japanese, Chinese, Thai, Lao, Khmer and Burmese with its dictionaries; punctuation and
/// spaces are not words (`Sources/CICU/word_count.c`).
enum WordSegmenter {
    /// The number of words in `text`, segmented by the rules of `locale` (a BCP 47 tag).
    ///
    /// `nil` if ICU cannot open a break iterator (its data missing), so the caller can fall back to spaces.
    static func countWords(in text: some StringProtocol, locale: String) -> Int? {
        let units = Array(text.utf16)
        guard !units.isEmpty else { return 0 }
        let count = units.withUnsafeBufferPointer { photoprompts_icu_count_words($0.baseAddress, Int32($0.count), locale) }
        return count < 0 ? nil : Int(count)
    }
}
