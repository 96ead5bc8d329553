import CICU

/// ICU's word-break iterator: counts words where a language is unspaced and finds each word for the real-word
/// check. ICU's dictionaries find words in Japanese, Chinese, Thai, Lao, Khmer and Burmese; punctuation and spaces
/// are not words (`Sources/CICU/word_count.c`).
package enum WordSegmenter {
    /// The number of words in `text` under `locale`'s rules; nil without a break iterator (ICU's data missing).
    package static func countWords(in text: some StringProtocol, locale: String) -> Int? {
        let units = Array(text.utf16)
        guard !units.isEmpty else { return 0 }
        let count = units.withUnsafeBufferPointer { photoprompts_icu_count_words($0.baseAddress, Int32($0.count), locale) }
        return count < 0 ? nil : Int(count)
    }

    /// The words of `text` (letters, numbers, kana or ideographs; never spaces or punctuation) under the rules of
    /// `locale`: "couldn't" is one word, "theLac-Balti" two. `nil` if ICU cannot open a break iterator.
    package static func words(in text: String, locale: String) -> [Substring]? {
        let units = Array(text.utf16)
        guard !units.isEmpty else { return [] }
        var bounds = [Int32](repeating: 0, count: 2 * 64)
        var count = units.withUnsafeBufferPointer { photoprompts_icu_word_bounds($0.baseAddress, Int32($0.count), locale, &bounds, 64) }
        if count > 64 {
            bounds = [Int32](repeating: 0, count: 2 * Int(count))
            count = units.withUnsafeBufferPointer { photoprompts_icu_word_bounds($0.baseAddress, Int32($0.count), locale, &bounds, count) }
        }
        guard count >= 0 else { return nil }
        let utf16 = text.utf16
        return (0..<Int(count)).map { word in
            let start = utf16.index(utf16.startIndex, offsetBy: Int(bounds[2 * word]))
            let end = utf16.index(utf16.startIndex, offsetBy: Int(bounds[2 * word + 1]))
            return text[start..<end]
        }
    }
}
