import Foundation

/// What a candidate must be before a user may see it, besides the word rule: a clean question, in the user's
/// language, in real words.
///
/// One pure function of candidate, language and photo, applied on every path to the screen: whole and streamed
/// replies, surplus (judged again when served) and the cache (keyed by ``version``, so an older gate's entry is never
/// read). Each failure is its own rejection reason, counted in `/metrics`, listed by `eval`, told to the model on a
/// re-ask. The language is CLD2's call (the letters' script where it cannot tell); the words are Hunspell's.
public struct PromptGate: Sendable {
    /// Changes whenever what the gate or a cached list's dedupe accepts changes: part of every cache key. 10: Chinese
    /// words judged, no Japanese opening particle, details the photo lacks rejected (``PhotoDetails``). 11: the
    /// validator's fluency rule. 12: cards a word or two apart are one question (``PromptSignature/isRewording(of:)``).
    public static let version = 12

    package let language: LanguageTag
    package let rules: GateRules
    /// Where each language's dictionary comes from; a language without one skips the word check.
    package let dictionaries: SpellingDictionaries
    /// Chatter phrases as UTF-8 repeat keys, space-padded where the language spaces words (whole-word matches).
    package let chatter: [[UInt8]]
    /// The photo's own words (place, labels, caption), lower-cased: real words whatever the dictionary says.
    package let photoWords: Set<String>
    /// Words the language's dictionary lacks but people write, lower-cased.
    package let knownWords: Set<String>
    /// What people write, for the dictionaries' coverage (``KnownWords``).
    package let peopleWrite: KnownWords
    /// The user's language and each accepted one.
    package let accepted: [LanguageTag]
    /// Whether CLD2 can identify the user's language at all; a language it does not know is judged by script only.
    package let identifiable: Bool
    /// Words are split on spaces in this language, so chatter phrases match as whole words.
    package let spacesWords: Bool
    /// The scripts the accepted languages are written in; nil when one of them may be written in any script.
    package let acceptedScripts: Set<String>?
    package let details: PhotoDetails

    /// A gate for candidates written for `language` about `photo`, on `now` (how many years ago the photo was taken
    /// is a number a card may name; nil: none).
    public init(
        language: LanguageTag,
        photo: PhotoMetadata,
        now: Date? = nil,
        rules: GateRules = GateRules(),
        chatter: ChatterPhrases = ChatterPhrases(),
        knownWords: KnownWords = KnownWords(),
        dictionaries: SpellingDictionaries
    ) {
        self.language = language
        self.rules = rules
        self.dictionaries = dictionaries
        let spacesWords = !CalibratedWordRanges.segmentedLanguages.contains(language.language)
        self.spacesWords = spacesWords
        let photoWords = Self.words(of: photo)
        self.photoWords = photoWords
        self.details = PhotoDetails(photo, language: language, now: now)
        // A phrase naming something the photo holds is about the photo ("the text" of a photo labelled "text").
        self.chatter = chatter.patterns(for: language, wholeWords: spacesWords).filter { pattern in
            !String(decoding: pattern, as: UTF8.self).split(separator: " ").contains { word in
                photoWords.contains(String(word)) && !SmallWords.contains(String(word), language: language.language)
            }
        }
        self.knownWords = knownWords.words(for: language)
        self.peopleWrite = knownWords
        self.accepted = [language] + rules.acceptedLanguages.compactMap(LanguageTag.init)
        self.identifiable = LanguageIdentifier.knows(LanguageIdentifier.code(for: language))
        // Worked out once per request, not once per candidate.
        let expected = accepted.map(LetterScripts.expected(for:))
        self.acceptedScripts = expected.contains { $0 == nil } ? nil : expected.reduce(into: Set<String>()) { $0.formUnion($1 ?? []) }
    }

    package func failure(for text: String) -> PromptRejection.Reason? {
        failure(for: LineAnalysis(text, locale: language.description))
    }

    /// The first rule the line breaks, or nil when it may be shown: each rule a predicate over the one reading.
    package func failure(for line: LineAnalysis) -> PromptRejection.Reason? {
        if rules.placeholders, line.holdsPlaceholder { return .placeholder }
        if rules.chatter, containsChatter(line.key) { return .assistantChatter }
        if rules.oneQuestion, line.questionMarks > 1 { return .twoQuestions }
        if rules.realWords, RepeatedText.isRepetitive(line, spacesWords: spacesWords, language: language.language) {
            return .repetitive
        }
        // The photo's own words are neither a language's nor a dictionary's to judge.
        let own = line.words.indices.filter { !isPhotoWord(line.words[$0], lowered: line.lowered[$0]) }
        let written: LanguageTag
        switch writtenLanguage(of: own.map { line.words[$0] }) {
        case .accepted(let tag): written = tag
        case .other(let other) where rules.language: return .wrongLanguage(other)
        case .other(let other): written = LanguageTag(other) ?? language
        }
        let dictionary = dictionaries.dictionary(for: written)
        if rules.realWords, let dictionary,
            let word = dictionary.brokenOpening(of: line.text)
                ?? unknownWord(in: judgedWords(own.map { (line.words[$0], line.lowered[$0]) }), dictionary: dictionary, coverage: coverage(of: written))
        {
            return .unknownWord(String(word))
        }
        if rules.photoDetails,
            let detail = details.unsupported(in: line, photoWords: photoWords, unknown: { dictionary?.unknown(in: $0) ?? [] })
        {
            return .unsupportedDetail(String(detail))
        }
        if rules.questionWords, !Interrogatives.asks(keyWords: line.keyWords, key: line.key, language: written.language) { return .notAQuestion }
        return nil
    }

    private func containsChatter(_ key: String) -> Bool {
        guard !chatter.isEmpty else { return false }
        return UTF8Search.containsAny(of: chatter, in: spacesWords ? " \(key) " : key)
    }

    /// The language a candidate is written in, as far as the gate can tell.
    private enum WrittenLanguage {
        /// The user's, or one the template accepts: its words are checked in its dictionary.
        case accepted(LanguageTag)
        /// Another: CLD2's code (`pt`), or the letters' script (`Latn`) where CLD2 could not tell.
        case other(String)
    }

    /// CLD2's call on the candidate's own words, without the photo's ("Praia da Rocha" in a Spanish question makes
    /// CLD2 call it Galician); where CLD2 cannot tell, most letters must be in a script of an accepted language.
    private func writtenLanguage(of ownWords: [Substring]) -> WrittenLanguage {
        let judged = ownWords.joined(separator: " ")
        if identifiable {
            let identified = LanguageIdentifier.identify(judged)
            if identified.isReliable, identified.code != "un" {
                let match = accepted.first { LanguageIdentifier.code(for: $0) == identified.code }
                return match.map(WrittenLanguage.accepted) ?? .other(identified.code)
            }
        }
        guard let scripts = acceptedScripts else { return .accepted(language) }
        let census = LetterScripts.census(of: judged)
        let letters = census.values.reduce(0, +)
        let inScript = census.filter { scripts.contains($0.key) }.values.reduce(0, +)
        guard letters > 0, inScript * 2 < letters, let script = census.max(by: { $0.value < $1.value })?.key else { return .accepted(language) }
        return .other(script)
    }

    /// The words the dictionary judges: neither known words nor numbers.
    private func judgedWords(_ words: [(word: Substring, lowered: String)]) -> [Substring] {
        words.filter { !$0.word.contains(where: \.isNumber) && (knownWords.isEmpty || !knownWords.contains($0.lowered)) }.map(\.word)
    }

    /// The dictionary's coverage on the good questions of `language`; none measured, every word must be known.
    private func coverage(of language: LanguageTag) -> DictionaryCoverage {
        let good = peopleWrite.goodQuestions[language.language] ?? []
        let measured = dictionaries.coverage(of: language, fingerprint: peopleWrite.fingerprint) { dictionary in
            DictionaryCoverage(of: dictionary, on: good.map { line in
                let reading = LineAnalysis(line, locale: self.language.description)
                return judgedWords(Array(zip(reading.words, reading.lowered)))
            })
        }
        return measured ?? DictionaryCoverage(known: 0, total: 0)
    }

    /// The first unknown word of a candidate with more unknown words than a good line of its length holds
    /// (``DictionaryCoverage/allowance(words:)``), or its first unknown word of ``SpellingDictionaries/gluedLength``
    /// letters or more: two words glued ("anddog"). Capitalised words are judged too: dictionaries know listed places,
    /// people and capitalised nouns, the photo's names are its words, and any other name is made up ("Ieet").
    private func unknownWord(in words: [Substring], dictionary: any WordDictionary, coverage: DictionaryCoverage) -> Substring? {
        let allowance = coverage.allowance(words: words.count)
        guard allowance > 0 else { return dictionary.firstUnknown(in: words) }
        let unknown = dictionary.unknown(in: words)
        return unknown.first { $0.count >= SpellingDictionaries.gluedLength } ?? (unknown.count > allowance ? unknown.first : nil)
    }

    /// Whether all of `word`'s repeat-key words are the photo's. A word of letters alone is its own key, lower-cased:
    /// only a word with an apostrophe or a mark between its letters is keyed again.
    private func isPhotoWord(_ word: Substring, lowered: String) -> Bool {
        guard !photoWords.isEmpty else { return false }
        if photoWords.contains(lowered) { return true }
        guard word.contains(where: { !$0.isLetter }) else { return false }
        let parts = PromptNormalizer.repeatKey(String(word)).split(separator: " ")
        return !parts.isEmpty && parts.allSatisfy { photoWords.contains(String($0)) }
    }

    /// The words of the photo's place, labels and caption, as repeat-key words.
    private static func words(of photo: PhotoMetadata) -> Set<String> {
        Set(photo.ownTexts.flatMap { PromptNormalizer.repeatKey($0).split(separator: " ").map(String.init) })
    }
}
