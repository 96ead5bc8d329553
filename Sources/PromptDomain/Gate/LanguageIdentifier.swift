import CCLD2

/// What Google's Compact Language Detector 2 makes of a text.
package struct IdentifiedLanguage: Sendable, Equatable {
    /// CLD2's code: `en`, `pt`, `zh` for Simplified and `zh-Hant` for Traditional Chinese, `un` when it cannot tell.
    package var code: String
    /// Whether CLD2 calls its answer reliable: clearly ahead of the next language for text this long.
    package var isReliable: Bool
}

/// Identifies a text's language with CLD2 (`Sources/CCLD2`), the only code that talks to it. Trained on the web's
/// text in 80 languages, CLD2 tells close pairs apart in a sentence (Spanish and Portuguese, Simplified and
/// Traditional Chinese). It keeps no state between calls, so any thread may call it.
package enum LanguageIdentifier {
    package static func identify(_ text: String) -> IdentifiedLanguage {
        var text = text
        return text.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 16) { code in
                let start = UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self)
                let reliable = photoprompts_cld2_identify(start, Int32(bytes.count), code.baseAddress, Int32(code.count))
                return IdentifiedLanguage(code: String(cString: code.baseAddress!), isReliable: reliable == 1)
            }
        }
    }

    package static func knows(_ code: String) -> Bool {
        photoprompts_cld2_knows(code) == 1
    }

    /// The code CLD2 gives text in `language`: `zh-Hant` for Traditional Chinese (the `Hant` script, or Taiwan, Hong
    /// Kong and Macau), the primary subtag otherwise.
    package static func code(for language: LanguageTag) -> String {
        guard language.language == "zh" else { return language.language }
        let traditional = language.script == "Hant" || (language.script == nil && ["TW", "HK", "MO"].contains(language.region ?? ""))
        return traditional ? "zh-Hant" : "zh"
    }
}
