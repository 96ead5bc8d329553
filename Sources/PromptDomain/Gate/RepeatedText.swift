/// Text that repeats itself: what a model writes once it has stopped making sense ("केकेकेकेकेके", "฿฿฿"). Where a
/// language has no dictionary (ja, zh, ko, hi, th), this keeps a base model's loops off the screen. The bounds sit
/// above what a question writes: "Schifffahrt" has three f's, a long English question three "the"s.
enum RepeatedText {
    /// Whether the line, in `language`, repeats a letter (four times), has three symbols or a
    /// letter with five marks, repeats a run of two to four characters (three times in a row), a word (three times
    /// running; three times in all if it has two characters or more and is not one of the language's small words,
    /// "おしゃべりで、おしゃべりにおしゃべりを"; four times in all if it is), two words together (three times) or,
    /// where words are spaced, four (twice); where they are not, two letters together (four times).
    static func isRepetitive(_ line: LineAnalysis, spacesWords: Bool, language: String) -> Bool {
        repeatsCharacters(line) || repeatsWords(line, spaced: spacesWords, language: language) || (!spacesWords && repeatsPairs(line))
    }

    private static func repeatsCharacters(_ line: LineAnalysis) -> Bool {
        let (codes, letters, symbols) = (line.characters, line.letters, line.symbols)
        // Symbols as words of their own, spaced apart: "คำว่า ฿ ฿ กับ ฿ ฿". No journaling question needs three.
        if symbols.count(where: { $0 }) >= 3 { return true }
        // Marks stacked on one letter: "أيًّاٌٌٌٌٌٍٍٍٍٍٍ". A letter carries at most three in the shipped scripts (Arabic's
        // shadda and a vowel, Devanagari's conjuncts and their vowel sign, Thai's vowel and tone).
        if line.stacksMarks { return true }
        var run = 1
        for index in codes.indices.dropFirst() {
            run = codes[index] == codes[index - 1] ? run + 1 : 1
            if run >= 4, letters[index] { return true }
            if run >= 3, symbols[index] { return true }
        }
        for unit in 2...4 where codes.count >= unit * 3 {
            var repeats = 1
            var start = 0
            while start + unit * 2 <= codes.count {
                let here = start..<(start + unit)
                if codes[here].elementsEqual(codes[(start + unit)..<(start + unit * 2)]), here.allSatisfy({ letters[$0] || symbols[$0] }) {
                    repeats += 1
                    if repeats >= 3 { return true }
                    start += unit
                } else {
                    repeats = 1
                    start += 1
                }
            }
        }
        return false
    }

    /// On the words' identities (``LineAnalysis/wordIDs``): the same word lower-cased is the same number.
    private static func repeatsWords(_ line: LineAnalysis, spaced: Bool, language: String) -> Bool {
        let ids = line.wordIDs
        // The same word three times running: "रंग रंग रंग".
        if zip(ids, zip(ids.dropFirst(), ids.dropFirst(2))).contains(where: { $0 == $1.0 && $0 == $1.1 }) { return true }
        var counts = [Int](repeating: 0, count: ids.count)
        for id in ids {
            counts[id] += 1
            guard counts[id] >= 3 else { continue }
            let key = line.lowered[id]
            if key.count >= 2, key.contains(where: \.isLetter), counts[id] >= (SmallWords.contains(key, language: language) ? 4 : 3) { return true }
        }
        // Two words together three times: "ใน ภาษา ไทย" over and over, where ICU's words are a syllable or two.
        var pairs: [Int: Int] = [:]
        for (first, second) in zip(ids, ids.dropFirst()) {
            let pair = first * ids.count + second
            pairs[pair, default: 0] += 1
            if pairs[pair, default: 0] >= 3 { return true }
        }
        // Four words together twice, where words are spaced (ICU's Thai or Japanese words are a syllable or a
        // character): "가장 큰 사진을 찍은 사람을 가장 큰 사진을 찍은 사람이라고…", a phrase said again.
        guard spaced, ids.count >= 4 else { return false }
        var phrases: Set<[Int]> = []
        for start in ids.indices.dropLast(3) where !phrases.insert(Array(ids[start..<(start + 4)])).inserted {
            return true
        }
        return false
    }

    /// Where words are not spaced (ja, zh, th), two letters together four times: "在哪" in "在哪个城市，在哪城市，在哪里，
    /// 在哪里，在哪年", where ICU's words are single characters and no word repeats as one.
    private static func repeatsPairs(_ line: LineAnalysis) -> Bool {
        let (codes, letters) = (line.characters, line.letters)
        var counts: [UInt64: Int] = [:]
        for index in codes.indices.dropFirst() where letters[index - 1] && letters[index] {
            let pair = UInt64(codes[index - 1]) << 32 | UInt64(codes[index])
            counts[pair, default: 0] += 1
            if counts[pair, default: 0] >= 4 { return true }
        }
        return false
    }
}
