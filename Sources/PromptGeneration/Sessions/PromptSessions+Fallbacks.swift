import Foundation
import PromptDomain
import PromptTemplates

/// How a session fills the gaps a model leaves: the fallbacks a round draws on, in the user's language.
extension PromptSessions {
    /// Fills gaps with the product's copy in the user's language. A template's own fallbacks are written in English
    /// (the source language, like `copy/en.json`), so they come first only for a user whose copy is English, and
    /// only those that pass the word rule for this photo. Then the copy's lines with a slot for the photo's place,
    /// those that render and pass the gate in the copy's language, then the rest of the copy.
    func assembler(
        for template: PromptTemplate,
        in set: TemplateSet,
        photo: PhotoMetadata,
        locale: LanguageTag
    ) -> (RoundAssembler, ProductCopy) {
        let copy = set.copy.copy(for: locale)
        let now = clock.now
        let fallbacks: @Sendable () -> FallbackPrompts = {
            var fallbacks = copy.fallbacks
            let context = TemplateContext(photo: photo, locale: locale, candidateCount: template.settings.candidateCount, now: now)
            if photo.location != nil {
                let validator = template.validator(for: copy.locale, photo: photo)
                fallbacks = fallbacks.preceded(by: copy.photoFallbacks.usable(for: context, validator: validator))
            }
            if copy.locale.language == LanguageTag.english.language {
                fallbacks = fallbacks.preceded(by: template.fallbacks.usable(for: context, validator: template.validator(for: .english)))
            }
            return fallbacks
        }
        return (RoundAssembler(fallbacks: fallbacks, wordRule: .for(copy.locale)), copy)
    }
}
