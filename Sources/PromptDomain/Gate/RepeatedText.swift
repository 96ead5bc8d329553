/// Text that repeats itself: what a model writes when it has stopped making sense, in any language, with a
/// dictionary for it or without ("केकेकेकेकेके", "฿฿฿", "ญานี ญานี … ญานี", "第一段介绍，第二段介绍，第三段介绍，第四段介绍").
///
/// Where a language has no dictionary (ja, zh, ko, hi, th), this is what keeps a base model's loops off the screen.
/// The bounds sit above what a question writes: German spells "Schifffahrt" with three f's, and a long English
/// question may say "the" three times.
enum RepeatedText {
    /// Whether the line, in `language`, repeats a letter (four times), has three symbols or a
    /// letter with five marks, repeats a run of two to four characters (three times in a row), a word (three times
    /// running; three times in all if it has two characters or more and is not one of the language's small words,
    /// "おしゃべりで、おしゃべりにおしゃべりを"; four times in all if it is), two words together (three times) or,
    /// where words are spaced, four (twice); where they are not, two letters together (four times).
    static func isRepetitive(_ line: LineAnalysis, spacesWords: Bool, language: String) -> Bool {
        repeatsCharacters(line.characters) || repeatsWords(line.lowered, spaced: spacesWords, language: language)
            || (!spacesWords && repeatsPairs(of: line.characters))
    }

    private static func repeatsCharacters(_ characters: [Character]) -> Bool {
        // Symbols as words of their own, spaced apart: "คำว่า ฿ ฿ กับ ฿ ฿". No journaling question needs three.
        if characters.count(where: \.isSymbol) >= 3 { return true }
        // Marks stacked on one letter: "أيًّاٌٌٌٌٌٍٍٍٍٍٍ". A letter carries at most three in the shipped scripts (Arabic's
        // shadda and a vowel, Devanagari's conjuncts and their vowel sign, Thai's vowel and tone).
        // (Only a character of five scalars or more can: the count comes first, as the properties cost more.)
        if characters.contains(where: { $0.unicodeScalars.count >= 5 && $0.unicodeScalars.count { $0.properties.generalCategory.isMark } >= 5 }) {
            return true
        }
        var run = 1
        for index in characters.indices.dropFirst() {
            let character = characters[index]
            run = character == characters[index - 1] ? run + 1 : 1
            // The run first: a character's properties are looked up only when it repeats.
            if run >= 4, character.isLetter { return true }
            if run >= 3, character.isSymbol { return true }
        }
        for unit in 2...4 where characters.count >= unit * 3 {
            var repeats = 1
            var start = 0
            while start + unit * 2 <= characters.count {
                let here = characters[start..<(start + unit)]
                let next = characters[(start + unit)..<(start + unit * 2)]
                if here == next, here.allSatisfy({ $0.isLetter || $0.isSymbol }) {
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

    private static func repeatsWords(_ keys: [String], spaced: Bool, language: String) -> Bool {
        // The same word three times running: "रंग रंग रंग".
        if zip(keys, zip(keys.dropFirst(), keys.dropFirst(2))).contains(where: { $0 == $1.0 && $0 == $1.1 }) { return true }
        var counts: [String: Int] = [:]
        for key in keys where key.count >= 2 && key.contains(where: \.isLetter) {
            counts[key, default: 0] += 1
            if counts[key, default: 0] >= (SmallWords.contains(key, language: language) ? 4 : 3) { return true }
        }
        // Two words together three times: "ใน ภาษา ไทย" over and over, where ICU's words are a syllable or two.
        var pairs: [String: Int] = [:]
        for (first, second) in zip(keys, keys.dropFirst()) {
            let key = first + " " + second
            pairs[key, default: 0] += 1
            if pairs[key, default: 0] >= 3 { return true }
        }
        // Four words together twice, where words are spaced (ICU's Thai or Japanese words are a syllable or a
        // character): "가장 큰 사진을 찍은 사람을 가장 큰 사진을 찍은 사람이라고…", a phrase said again.
        guard spaced else { return false }
        var phrases: Set<String> = []
        for start in keys.indices.dropLast(3) where !phrases.insert(keys[start..<(start + 4)].joined(separator: " ")).inserted {
            return true
        }
        return false
    }

    /// Where words are not spaced (ja, zh, th), two letters together four times: "在哪" in "在哪个城市，在哪城市，在哪里，
    /// 在哪里，在哪年", where ICU's words are single characters and no word repeats as one.
    private static func repeatsPairs(of characters: [Character]) -> Bool {
        var counts: [String: Int] = [:]
        for (first, second) in zip(characters, characters.dropFirst()) where first.isLetter && second.isLetter {
            let key = String([first, second])
            counts[key, default: 0] += 1
            if counts[key, default: 0] >= 4 { return true }
        }
        return false
    }
}
