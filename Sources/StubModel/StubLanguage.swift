/// The language a system message asks the stub model to write in, read the way the shipped templates say it:
/// "…the language of the locale ja-JP."
enum StubLanguage {
    /// The key of ``ReferenceQuestions/translations`` for the locale named after "locale " in `system`, or `nil`
    /// for English, an unnamed locale, or a language the stub does not write.
    static func requested(in system: String) -> String? {
        guard let range = system.range(of: "locale ") else { return nil }
        let tag = system[range.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let language = subtags.first else { return nil }
        let key: String
        if language == "zh" {
            // Traditional in Taiwan, Hong Kong and Macau, or when the tag says so; Simplified otherwise.
            let traditional = subtags.contains("hant") || subtags.contains { ["tw", "hk", "mo"].contains($0) }
            key = traditional ? "zh-Hant" : "zh-Hans"
        } else {
            key = language
        }
        return ReferenceQuestions.translations[key] == nil ? nil : key
    }
}
