import Foundation
import PromptDomain

/// Chinese as jieba's word list writes it: the real-word check of Chinese, in both of its scripts.
///
/// jieba's list (Debian's `python3-jieba`, `dict.txt`) holds 349,046 words of Simplified Chinese, each with how often
/// its corpus wrote it, in 12,010 characters. Chinese writes a word in one to four characters with no space, and
/// ICU's segmenter already splits a card into the words its own dictionary knows; what a small model breaks is the
/// characters and the script. A word is unknown when it holds
/// - a character the list never writes, once ICU has given a Traditional character its Simplified form;
/// - a letter of another script (kana, hangul) among Chinese characters;
/// - characters of the script the card writes less, in a card that writes some only Simplified Chinese uses beside
///   some only Traditional Chinese uses (Gemma's "你對這個事有什么感受？"); both, when it writes as many of each.
///
/// A character is Simplified only where ICU's "Hans-Hant" changes it (么 becomes 麼), Traditional only where
/// "Hant-Hans" changes it and the list writes it less than once for every hundred times it writes the Simplified
/// form (著 stays: Simplified Chinese writes 著名).
package final class ChineseDictionary: WordDictionary {
    /// Every character the list writes, in its Simplified form.
    private let listed: Set<Unicode.Scalar>
    /// The Simplified form of each Traditional character that has another.
    private let simplified: [Unicode.Scalar: Unicode.Scalar]
    private let traditionalOnly: Set<Unicode.Scalar>
    private let simplifiedOnly: Set<Unicode.Scalar>

    /// Reads jieba's list and asks ICU for both scripts' forms of every CJK unified character; nil if either fails.
    package init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        var written: [Unicode.Scalar: Int] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
            guard fields.count >= 2, let count = Int(String(decoding: fields[1], as: UTF8.self)) else { continue }
            for scalar in String(decoding: fields[0], as: UTF8.self).unicodeScalars where scalar.properties.isIdeographic {
                written[scalar, default: 0] += count
            }
        }
        let han = (0x3400...0x4DBF).compactMap(Unicode.Scalar.init) + (0x4E00...0x9FFF).compactMap(Unicode.Scalar.init)
        guard !written.isEmpty, let simplified = Self.changes("Hant-Hans", of: han), let traditional = Self.changes("Hans-Hant", of: han)
        else { return nil }
        listed = Set(written.keys)
        self.simplified = simplified
        traditionalOnly = Set(simplified.filter { (written[$0.key] ?? 0) * 100 < (written[$0.value] ?? 0) }.keys)
        simplifiedOnly = Set(traditional.keys)
    }

    /// The words of `words` the list does not know, and those of the script the card writes less.
    package func unknown(in words: [Substring]) -> [Substring] {
        let traditional = words.map { $0.unicodeScalars.count(where: traditionalOnly.contains) }
        let simplified = words.map { $0.unicodeScalars.count(where: simplifiedOnly.contains) }
        let (traditionalCount, simplifiedCount) = (traditional.reduce(0, +), simplified.reduce(0, +))
        let mixed = traditionalCount > 0 && simplifiedCount > 0
        return words.indices.filter { index in
            if !isKnown(words[index]) { return true }
            guard mixed else { return false }
            return (traditionalCount <= simplifiedCount && traditional[index] > 0) || (simplifiedCount <= traditionalCount && simplified[index] > 0)
        }.map { words[$0] }
    }

    private func isKnown(_ word: Substring) -> Bool {
        word.unicodeScalars.allSatisfy { !$0.properties.isIdeographic || listed.contains(simplified[$0] ?? $0) }
            && LetterScripts.census(of: word).keys.allSatisfy { $0 == "Hani" || $0 == "Latn" }
    }

    /// The characters of `scalars` ICU's transliterator `id` writes otherwise, with the one it writes instead.
    private static func changes(_ id: String, of scalars: [Unicode.Scalar]) -> [Unicode.Scalar: Unicode.Scalar]? {
        guard let rewritten = Transliteration.apply(id, to: scalars.map { String($0) }.joined(separator: "\n")) else { return nil }
        let lines = rewritten.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == scalars.count else { return nil }
        var changes: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (scalar, line) in zip(scalars, lines) where line.unicodeScalars.count == 1 && line.unicodeScalars.first != scalar {
            changes[scalar] = line.unicodeScalars.first
        }
        return changes
    }
}
