import Foundation

/// A language's name in English, for templates (`{{language}}`): "Japanese", "Chinese (Traditional)". A model told
/// "write in Japanese" obeys more reliably than one told "the locale ja-JP". Names are CLDR's, via Foundation; a
/// script is named where it decides the writing (Chinese), a region not ("Portuguese" serves pt-BR and pt-PT).
package enum LanguageNames {
    private static let english = Locale(identifier: "en")

    /// The English name of `tag`'s language; the tag itself when CLDR has no name for it.
    package static func englishName(of tag: LanguageTag) -> String {
        guard !tag.language.isEmpty, let name = english.localizedString(forLanguageCode: tag.language), name != tag.language else {
            return tag.description
        }
        guard let script = tag.script ?? CopyMatching.impliedScript(of: tag),
            let scriptName = english.localizedString(forScriptCode: script)
        else { return name }
        // CLDR's stand-alone names are "Simplified Han" and "Traditional Han"; after "Chinese", the "Han" is noise.
        let shortName = scriptName.hasSuffix(" Han") ? String(scriptName.dropLast(4)) : scriptName
        return "\(name) (\(shortName))"
    }
}
