import PhotoPrompts
import PromptDomain
import PromptTemplates
import StubModel
import Testing

/// What the language tests in both layers share: the shipped languages, a photo request in a locale, and the copy.
package enum LanguageFixtures {
    /// The language tags of the copy the app ships, as `prompts/copy/` names them.
    package static let shipped = ["ar", "de", "en", "es", "fr", "hi", "it", "ja", "ko", "pt", "th", "zh-Hans", "zh-Hant"]

    /// A request for a photo of a temple in cherry blossom, in `locale`.
    package static func request(locale: String) -> String {
        """
        {"locale": "\(locale)", "photo": {"taken_at": "2026-04-03T10:20:00+09:00", "labels": ["temple", "cherry blossom"], "people_count": 2}}
        """
    }

    /// Every question the stub model writes in `locale` for ``request(locale:)``'s photo: the language's reference
    /// questions and its questions about the temple, the cherry blossom and the people.
    /// The stub writes one question a frame, so each label is asked about alone.
    package static func stubQuestions(locale: String) -> Set<String> {
        Set(
            ["temple", "cherry blossom"].flatMap { label in
                let user = "<photo>\nlabels: \(label)\npeople_count: 2\n</photo>"
                return StubPromptWriter.questions(system: "Write 100 questions in the language of the locale \(locale).", user: user)
            }
        )
    }

    /// The product's copy as shipped in `prompts/copy/`.
    package static func copy(_ locale: String) throws -> ProductCopy {
        try CopyCatalog.load(from: repositoryPromptsDirectory).copy(for: try #require(LanguageTag(locale)))
    }
}

/// The product's English fallback prompts, as the spec words them: what a user sees when the model gives nothing.
package let productFallbacks = ["What happened in this moment?", "How did this make you feel?", "What do you want to remember about today?"]
