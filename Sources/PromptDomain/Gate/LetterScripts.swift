import CICU

/// The writing systems of a text's letters, by ICU's script property (`Sources/CICU`): where CLD2 cannot decide a
/// candidate's language, its letters still can (Latin letters are never Japanese).
package enum LetterScripts {
    /// The ISO 15924 code of each letter's script, counted ("Latn": 31, "Hira": 2); digits, punctuation and marks
    /// (the Common and Inherited scripts) are left out.
    package static func census(of text: some StringProtocol) -> [String: Int] {
        var counts: [String: Int] = [:]
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            let script = String(cString: photoprompts_icu_script(scalar.value))
            guard script != "Zyyy", script != "Zinh" else { continue }
            counts[script, default: 0] += 1
        }
        return counts
    }

    /// The scripts `language` is written in; nil (any script) for a language the table does not know.
    package static func expected(for language: LanguageTag) -> Set<String>? {
        switch language.language {
        case "ja": ["Hira", "Kana", "Hani"]
        case "zh", "yue": ["Hani"]
        case "ko": ["Hang", "Hani"]
        case "ar", "fa", "ur": ["Arab"]
        case "hi", "mr", "ne": ["Deva"]
        case "th": ["Thai"]
        case "en", "es", "pt", "fr", "de", "it", "nl": ["Latn"]
        default: nil
        }
    }
}
