/// The four seasons, meteorologically, and how each shipped language names them: for the gate's `unsupported_detail`
/// rule (``PhotoDetails``) and the templates' `season`.
package enum Season: String, CaseIterable, Sendable {
    case winter, spring, summer, autumn

    /// The season of `month` (1–12), in the southern hemisphere when `southern`.
    package init(month: Int, southern: Bool) {
        let northern: [Season] = [.winter, .spring, .summer, .autumn]
        self = northern[((month % 12) / 3 + (southern ? 2 : 0)) % 4]
    }

    /// Each language's words for each season, lower-cased. Left out: words that are also common words of another
    /// meaning (English "fall", French "été", which is also "been"; Hindi "गर्मी", which is also "heat"), and Thai,
    /// whose seasons are hot, rainy and cool, not these four.
    package static let names: [String: [Season: [String]]] = [
        "en": [.winter: ["winter"], .spring: ["spring", "springtime"], .summer: ["summer", "summertime"], .autumn: ["autumn"]],
        "es": [.winter: ["invierno"], .spring: ["primavera"], .summer: ["verano"], .autumn: ["otoño"]],
        "pt": [.winter: ["inverno"], .spring: ["primavera"], .summer: ["verão"], .autumn: ["outono"]],
        "fr": [.winter: ["hiver"], .spring: ["printemps"], .summer: [], .autumn: ["automne"]],
        "de": [.winter: ["winter"], .spring: ["frühling", "frühjahr"], .summer: ["sommer"], .autumn: ["herbst"]],
        "it": [.winter: ["inverno"], .spring: ["primavera"], .summer: ["estate"], .autumn: ["autunno"]],
        "nl": [.winter: ["winter"], .spring: ["lente", "voorjaar"], .summer: ["zomer"], .autumn: ["herfst", "najaar"]],
        "ja": [.winter: ["冬"], .spring: ["春"], .summer: ["夏"], .autumn: ["秋"]],
        "zh": [.winter: ["冬天", "冬季"], .spring: ["春天", "春季"], .summer: ["夏天", "夏季"], .autumn: ["秋天", "秋季"]],
        "ko": [.winter: ["겨울"], .spring: ["봄"], .summer: ["여름"], .autumn: ["가을"]],
        "ar": [.winter: ["شتاء", "الشتاء"], .spring: ["ربيع", "الربيع"], .summer: ["صيف", "الصيف"], .autumn: ["خريف", "الخريف"]],
        "hi": [.winter: ["सर्दियों", "जाड़े"], .spring: ["वसंत", "बसंत"], .summer: ["गर्मियों"], .autumn: ["पतझड़"]],
    ]

    /// Whether `word` is one of `names` (a season's in `language`), as the language writes words: Korean puts its
    /// particles after the noun ("여름에"), Arabic its prepositions and conjunctions before it ("بالصيف").
    package static func word(_ word: String, in language: String, isOneOf names: [String]) -> Bool {
        switch language {
        case "ko": return names.contains { word.hasPrefix($0) }
        case "ar": return names.contains { word.hasSuffix($0) }
        default: return names.contains(word)
        }
    }
}
