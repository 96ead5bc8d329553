/// What a prompt asks, as the set of its content words' stems: prompts whose sets mostly agree are the same question
/// to a user, even when they differ in small words, word forms, numbers, dates or a place's accents.
///
/// "What do you do today in Boston, United States?" and "What did you do on Tuesday at Boston, United States?" both
/// give {what, boston, unit, state}. Words are ICU's; stems are Snowball's, a Korean word's first two syllables (its
/// particles come after), or the word itself (Japanese, Chinese, Thai). Terms are 32-bit hashes: a stored signature
/// holds no word. Changing how terms are made leaves stored signatures apart; keys alone catch those until they lapse.
public struct PromptSignature: Sendable, Hashable {
    /// The Jaccard share of terms near-duplicates reach; measured in `NearDuplicatePairTests` (docs/QUALITY.md).
    public static let threshold = 0.75

    /// The terms' hashes, sorted, each once.
    public let terms: [UInt32]
    /// Every word's hash in order, small words included (``isRewording(of:)``). Stores keep terms only, so a
    /// signature read back has none; it is not part of equality.
    public private(set) var sequence: [UInt32] = []

    public init(_ text: String, language: LanguageTag) {
        self = Self.signatures(of: [text], language: language)[0]
    }

    /// The signatures of `texts`, each as ``init(_:language:)`` gives it, from one pass of the word breaker over them
    /// all: an angles file's hundred words would otherwise open ICU's breaker a hundred times on every reload.
    public static func signatures(of texts: [String], language: LanguageTag) -> [PromptSignature] {
        let joined = texts.joined(separator: "\n")
        // Where each text ends in `joined`: a word belongs to the first text that ends after it starts.
        var ends: [String.Index] = []
        var offset = 0
        for text in texts {
            offset += text.utf8.count
            ends.append(joined.utf8.index(joined.startIndex, offsetBy: offset))
            offset += 1
        }
        let stemmer = Stemmer.for(language.language)
        var terms = [Set<UInt32>](repeating: [], count: texts.count)
        var sequences = [[UInt32]](repeating: [], count: texts.count)
        var part = 0
        for word in words(of: joined, language: language) {
            while word.startIndex >= ends[part] { part += 1 }
            let word = word.lowercased()
            sequences[part].append(hash(word))
            guard let term = term(word, language: language.language, stemmer: stemmer) else { continue }
            terms[part].insert(hash(term))
        }
        return zip(terms, sequences).map { terms, sequence in
            var signature = PromptSignature(terms: terms.sorted())
            signature.sequence = sequence
            return signature
        }
    }

    /// The signature of `photo`'s own words (``PhotoMetadata/ownTexts``): the terms a card's frame leaves out.
    public init(photo: PhotoMetadata, language: LanguageTag) {
        self.init(photo.ownTexts.joined(separator: " , "), language: language)
    }

    /// No terms. It is nobody's near-duplicate.
    public static let none = PromptSignature(terms: [])

    /// A signature from its terms as a store kept them: sorted, each once.
    package init(terms: [UInt32]) {
        self.terms = terms
    }

    /// A signature as the user's data export shows it: eight hex digits per term.
    public var stored: String {
        terms.map { term in
            let hex = String(term, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    /// The share of the two signatures' terms they have in common, 0 to 1.
    public func similarity(to other: PromptSignature) -> Double {
        guard !terms.isEmpty || !other.terms.isEmpty else { return 0 }
        var shared = 0
        var (left, right) = (0, 0)
        while left < terms.count, right < other.terms.count {
            if terms[left] == other.terms[right] {
                shared += 1
                left += 1
                right += 1
            } else if terms[left] < other.terms[right] {
                left += 1
            } else {
                right += 1
            }
        }
        return Double(shared) / Double(terms.count + other.terms.count - shared)
    }

    /// Whether the two prompts ask the same thing; one of small words only ("What is this?") repeats only by its key.
    public func isNearDuplicate(of other: PromptSignature) -> Bool {
        !terms.isEmpty && similarity(to: other) >= Self.threshold
    }

    /// Whether the two are worded alike: a word apart, or two where both have eight words or more (a word changed,
    /// added or removed counts one). "What was the most unforgettable / remarkable experience you have had?" is one
    /// question twice to a reader, though their terms differ by a third. Cards of four words or fewer are left to
    /// their terms.
    public func isRewording(of other: PromptSignature) -> Bool {
        let (left, right) = (sequence, other.sequence)
        let apart = min(left.count, right.count) >= 8 ? 2 : 1
        guard min(left.count, right.count) > 4, abs(left.count - right.count) <= apart else { return false }
        // Levenshtein's distance by rows, over words; a row with nothing within reach cannot end within it.
        var previous = Array(0...right.count)
        for (row, word) in left.enumerated() {
            var current = [row + 1]
            for (column, other) in right.enumerated() {
                current.append(min(previous[column] + (word == other ? 0 : 1), previous[column + 1] + 1, current[column] + 1))
            }
            guard current.contains(where: { $0 <= apart }) else { return false }
            previous = current
        }
        return previous[right.count] <= apart
    }

    public static func == (left: PromptSignature, right: PromptSignature) -> Bool {
        left.terms == right.terms
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(terms)
    }

    /// ICU's words where a language does not space them; elsewhere runs of letters, marks and numbers, an inner
    /// apostrophe kept ("l'été"): the same words, without a break iterator per prompt at ten times the rest's cost.
    private static func words(of text: String, language: LanguageTag) -> [Substring] {
        if CalibratedWordRanges.segmentedLanguages.contains(language.language) {
            return WordSegmenter.words(in: text, locale: language.description) ?? text.split(whereSeparator: \.isWhitespace)
        }
        // Most texts are ASCII, walked as bytes: as characters they cost most of a cache hit's signing.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
            return runs(of: text, in: text.utf8, inWord: { isLetter($0) || (0x30...0x39).contains($0) }, apostrophe: { $0 == 0x27 }, letter: isLetter)
        }
        return runs(
            of: text,
            in: text,
            inWord: { $0.isLetter || $0.isNumber || $0.unicodeScalars.contains { $0.properties.generalCategory.isMark } },
            apostrophe: { $0 == "'" || $0 == "’" },
            letter: \.isLetter
        )
    }

    /// The runs of `text`'s elements in `view` (its characters, or its bytes) that are `inWord`, an `apostrophe`
    /// inside a run before a `letter` included.
    private static func runs<View: BidirectionalCollection>(
        of text: String,
        in view: View,
        inWord: (View.Element) -> Bool,
        apostrophe: (View.Element) -> Bool,
        letter: (View.Element) -> Bool
    ) -> [Substring] where View.Index == String.Index {
        var words: [Substring] = []
        var start: String.Index?
        var index = view.startIndex
        while index < view.endIndex {
            let element = view[index]
            let next = view.index(after: index)
            if inWord(element) || (apostrophe(element) && start != nil && next < view.endIndex && letter(view[next])) {
                if start == nil { start = index }
            } else if let wordStart = start {
                words.append(text[wordStart..<index])
                start = nil
            }
            index = next
        }
        if let wordStart = start { words.append(text[wordStart...]) }
        return words
    }

    /// The term `word` gives, or nil when it carries nothing a question turns on (a small word, a number).
    private static func term(_ word: String, language: String, stemmer: Stemmer?) -> String? {
        var word = word
        let ascii = word.utf8.allSatisfy { $0 < 0x80 }
        if ascii ? word.utf8.contains(where: { (0x30...0x39).contains($0) }) : word.contains(where: \.isNumber) { return nil }
        if ascii || word.unicodeScalars.allSatisfy({ $0.value < 0x0250 }) {
            // Foundation's folding is the slowest step here: ASCII words have nothing to fold.
            if !ascii { word = word.folding(options: .diacriticInsensitive, locale: nil) }
            word = withoutElision(word, language: language)
        }
        guard !word.isEmpty, !SmallWords.contains(word, language: language) else { return nil }
        // Stemmed twice: Snowball maps "quienes" to "quien" but "quien" to "qui"; a second pass joins such pairs.
        if let stemmer {
            let stem = stemmer.stem(stemmer.stem(word))
            return SmallWords.containsStem(stem, language: language) ? nil : stem
        }
        if language == "ko" { return String(word.prefix(2)) }
        return word
    }

    /// English keeps the word before an apostrophe ("didn't"); French and Italian the word after it ("l'été").
    private static func withoutElision(_ word: String, language: String) -> String {
        guard let apostrophe = word.firstIndex(where: { $0 == "'" || $0 == "’" }) else { return word }
        switch language {
        case "fr", "it": return String(word[word.index(after: apostrophe)...])
        default: return String(word[..<apostrophe])
        }
    }

    /// FNV-1a, 32 bits: stable across processes and platforms, unlike `Hasher`.
    private static func hash(_ term: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in term.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }
}
