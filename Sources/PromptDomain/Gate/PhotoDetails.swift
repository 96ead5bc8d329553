import Foundation

/// What a photo's metadata says, for the gate's `unsupported_detail` rule: a card may name a number, a weekday, a
/// month, a season or a name only where the photo says it. Small models state what they were not told ("…Boston,
/// United Kingdom?" for Boston, United States), so the rule works from the metadata's words and each language's
/// writing, never from a list of places:
/// - a number in digits: the people count, a number in the place, labels or caption, the date's year, month or day,
///   or how many years ago the photo was taken;
/// - a weekday or month (CLDR's names in the user's language) when it is the photo's; a season (``Season``) when its
///   date and latitude give it; any of these where the place, labels or caption write it ("Summer Palace");
/// - where a language capitalises names and not nouns, a capitalised word after the first is a name when the
///   dictionary lacks it in lower case ("Mara") or it stands beside another capital ("United Kingdom"); Title Case
///   marks nothing. A name is supported when the photo holds it, in its wording or the card language's: CLDR's country
///   name ("Estados Unidos"), or a spelling with the same first three letters and at most a third changed ("Roma").
package struct PhotoDetails: Sendable {
    private let numbers: Set<Int>
    /// The words of the photo's place, labels and caption, as they are written: supported whatever they say.
    private let ownWords: Set<String>
    /// Every weekday and month name of the language as CLDR writes it, and those but the photo's own.
    private let dates: Set<String>
    private let otherDates: Set<String>
    /// The names of the seasons but the photo's (all four where its latitude or date is unknown) in the language.
    private let otherSeasons: [String]
    /// The language's primary subtag, for how its season names are written onto words.
    private let language: String
    private let capitalisesNames: Bool
    /// The words of the photo's country as CLDR names it in the card's language, lower-cased.
    private let countryWords: Set<String>

    /// Languages that capitalise names and sentence starts only: a capital elsewhere marks a name.
    private static let capitalisingNames: Set<String> = ["en", "es", "pt", "fr", "it", "nl"]

    /// The details `photo` supports for a card in `language`, on `now` (nil: no years-ago count is supported).
    package init(_ photo: PhotoMetadata, language: LanguageTag, now: Date?) {
        var numbers = Set(photo.ownTexts.flatMap(Self.numbers(in:)))
        if let count = photo.peopleCount { numbers.insert(count) }
        var own: Set<String> = []
        var season: Season?
        let names = Self.dateNames(language)
        if let takenAt = photo.takenAt, let parts = TimestampParser.components(of: takenAt) {
            numbers.formUnion([parts.year, parts.month, parts.day, parts.year % 100])
            season = photo.location?.latitude.map { Season(month: parts.month, southern: $0 < 0) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            if let day = calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: parts.day)), names.months.count == 12 {
                own = [names.weekdays[calendar.component(.weekday, from: day) - 1], names.months[parts.month - 1]]
                // The count a person gives depends on whether this year's anniversary has passed.
                if let now, let years = calendar.dateComponents([.year], from: day, to: now).year { numbers.formUnion([years, years + 1]) }
            }
        }
        self.numbers = numbers
        ownWords = Set(photo.ownTexts.flatMap { $0.split { !$0.isLetter && !$0.isNumber }.map(String.init) })
        dates = Set(names.weekdays + names.months)
        otherDates = dates.subtracting(own)
        otherSeasons = Season.allCases.filter { $0 != season }.flatMap { Season.names[language.language]?[$0] ?? [] }
        self.language = language.language
        capitalisesNames = Self.capitalisingNames.contains(language.language)
        let region = capitalisesNames ? photo.location?.country.flatMap { Self.regionCodes[$0.lowercased()] } : nil
        let countryName = region.flatMap { Locale(identifier: language.description).localizedString(forRegionCode: $0) }
        countryWords = Set(countryName.map { $0.lowercased().split { !$0.isLetter }.map(String.init) } ?? [])
    }

    /// Every region's code by its lower-cased name, in the app's languages ("estados unidos" is "US") and in each
    /// region's own, as a phone there writes it ("ísland" is "IS"). Built once, from CLDR, in about 35 ms.
    private static let regionCodes: [String: String] = {
        let regions = Locale.Region.isoRegions.filter(\.subRegions.isEmpty).map(\.identifier)
        var codes: [String: String] = [:]
        for language in ["en", "es", "pt", "fr", "it", "nl", "de", "ja", "zh-Hans", "zh-Hant", "ko", "ar", "hi", "th"] {
            let locale = Locale(identifier: language)
            for region in regions {
                if let name = locale.localizedString(forRegionCode: region) { codes[name.lowercased()] = region }
            }
        }
        for identifier in Locale.availableIdentifiers {
            let locale = Locale(identifier: identifier)
            if let region = locale.region?.identifier, let name = locale.localizedString(forRegionCode: region) {
                codes[name.lowercased()] = region
            }
        }
        for region in regions { codes[region.lowercased()] = region }
        return codes
    }()

    /// The first word of the line naming a detail the photo does not support, or nil. `photoWords` are the photo's
    /// own words, lower-cased; `unknown` gives those of some words the language's dictionary does not know.
    package func unsupported(in line: LineAnalysis, photoWords: Set<String>, unknown: ([Substring]) -> [Substring]) -> Substring? {
        let words = line.words
        for (index, word) in words.enumerated() where !ownWords.contains(String(word)) {
            if Self.numbers(in: String(word)).contains(where: { !numbers.contains($0) }) { return word }
            if isOtherDate(word, startsSentence: index == 0) { return word }
            let lowered = line.lowered[index]
            if Season.word(lowered, in: language, isOneOf: otherSeasons) { return word }
        }
        // A card in Title Case marks nothing by its capitals.
        guard capitalisesNames else { return nil }
        let isCapitalised = words.indices.map { Self.isCapitalised(words[$0], lowered: line.lowered[$0]) }
        guard isCapitalised.dropFirst().count(where: { $0 }) * 2 <= words.count - 1 else { return nil }
        let capitalised = words.indices.dropFirst().filter { index in
            isCapitalised[index] && !dates.contains(String(words[index])) && !names(line.lowered[index], photoWords)
        }
        guard !capitalised.isEmpty else { return nil }
        let lowered = capitalised.map { Substring(line.lowered[$0]) }
        let notWords = Set(unknown(lowered))
        for (position, index) in capitalised.enumerated() {
            let beside = [index - 1, index + 1].contains { $0 > 0 && $0 < words.count && isCapitalised[$0] }
            if notWords.contains(lowered[position]) || beside { return words[index] }
        }
        return nil
    }

    /// Whether `word` names another weekday or month than the photo's. A capitalised CLDR name ("May") counts only so
    /// written and not opening the sentence ("May I…?"); a lower-case one (Spanish "lunes") however it starts.
    private func isOtherDate(_ word: Substring, startsSentence: Bool) -> Bool {
        if otherDates.contains(String(word)) { return !(startsSentence && word.first?.isUppercase == true) }
        return otherDates.contains(word.prefix(1).lowercased() + word.dropFirst())
    }

    /// Whether lower-cased `word` names what `photoWords` do: one of them, a country-name word, or a local spelling.
    private func names(_ word: String, _ photoWords: Set<String>) -> Bool {
        if photoWords.contains(word) || countryWords.contains(word) { return true }
        let folded = Array(word.folding(options: .diacriticInsensitive, locale: nil))
        guard folded.count >= 3 else { return false }
        return photoWords.contains { own in
            let other = Array(own.folding(options: .diacriticInsensitive, locale: nil))
            return other.starts(with: folded.prefix(3)) && 3 * Self.editDistance(folded, other) <= max(folded.count, other.count)
        }
    }

    /// Levenshtein's distance: the letters to change, add or remove to turn one word into the other.
    private static func editDistance(_ first: [Character], _ second: [Character]) -> Int {
        var previous = Array(0...second.count)
        for (i, letter) in first.enumerated() {
            var current = [i + 1]
            for (j, other) in second.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (letter == other ? 0 : 1)))
            }
            previous = current
        }
        return previous[second.count]
    }

    /// A word written with a capital, other than English's "I" and its contractions ("I'm").
    private static func isCapitalised(_ word: Substring, lowered lower: String) -> Bool {
        guard word.first?.isUppercase == true else { return false }
        return !(lower == "i" || lower.hasPrefix("i'") || lower.hasPrefix("i’"))
    }

    /// The numbers written in digits in `text`, in any script's digits: not numerals written as words or characters
    /// (一 of もう一度, 什 of 什么, which Unicode gives a value too).
    private static func numbers(in text: String) -> [Int] {
        text.split { !isDigit($0) }.compactMap { Int($0.compactMap(\.wholeNumberValue).map(String.init).joined()) }
    }

    private static func isDigit(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1 && character.unicodeScalars.first?.properties.numericType == .decimal
    }

    /// CLDR's weekday names (Sunday first) and month names in `language`, as a sentence writes them: a calendar's,
    /// which costs an eighth of a date formatter's (13 against 105 µs), on every request the gate judges.
    private static func dateNames(_ language: LanguageTag) -> (weekdays: [String], months: [String]) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: language.description)
        return (calendar.weekdaySymbols, calendar.monthSymbols)
    }
}
