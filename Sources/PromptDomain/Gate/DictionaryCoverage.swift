import Foundation

/// How much of what people write a language's dictionary knows, measured on known-good questions
/// (`prompts/good/<tag>.txt`), and so how many unknown words a good line may hold before the gate calls it unknown.
///
/// Debian's English dictionary knows every word of its good questions, so one unknown word fails a card; its Hindi
/// one misses about one in fifty ("धूप"), so two in a fourteen-word good question are normal there.
package struct DictionaryCoverage: Sendable, Equatable {
    /// Words of the good questions the dictionary knew, and all their words.
    package let known: Int
    package let total: Int

    /// How rarely a good line may reach the allowance's count of unknown words: once in a hundred.
    package static let tail = 0.01

    package init(known: Int, total: Int) {
        self.known = known
        self.total = total
    }

    /// The coverage of `dictionary` on `lines`, each given as the words the gate judges and judged on its own, as a
    /// card is: a line's words are context (MeCab's sentence, the script a Chinese line writes).
    package init(of dictionary: any WordDictionary, on lines: [[Substring]]) {
        let total = lines.reduce(0) { $0 + $1.count }
        self.init(known: total - lines.reduce(0) { $0 + dictionary.unknown(in: $1).count }, total: total)
    }

    /// The most unknown words a good line of `words` words holds with a probability of ``tail`` or more, each word
    /// unknown as often as in the good questions (the binomial's tail). 0 where the dictionary knew every word.
    package func allowance(words: Int) -> Int {
        guard total > 0, known < total, words > 0 else { return 0 }
        let miss = Double(total - known) / Double(total)
        guard miss < 1 else { return words }
        var exactly = pow(1 - miss, Double(words))
        var atLeastNext = 1 - exactly
        var allowed = 0
        while allowed < words, atLeastNext >= Self.tail {
            exactly *= Double(words - allowed) / Double(allowed + 1) * miss / (1 - miss)
            atLeastNext -= exactly
            allowed += 1
        }
        return allowed
    }
}
