import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import StubLLM
import StubModel
import Testing

extension SystemTests {
    /// The rest of the languages' behaviour is in the fast layer (`LanguageAPIRouteTests`); this is what only a real
    /// socket shows: text in every script sent to the model as JSON, and back, through libcurl.
    @Suite("Every user's language, over real HTTP")
    struct LanguageAPITests {
        @Test(
            "A user gets model prompts in their language, counted under its rule, from stub-llm over libcurl",
            arguments: [
                ("ja-JP", "ja"), ("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant"), ("th-TH", "th"), ("ar-EG", "ar"), ("de-DE", "de"),
                ("es-ES", "es"), ("ko-KR", "ko"), ("hi-IN", "hi"), ("fr-FR", "fr"), ("it-IT", "it"), ("pt-BR", "pt"),
            ]
        )
        func modelPromptsInTheLanguage(locale: String, language: String) async throws {
            let written = LanguageFixtures.stubQuestions(locale: locale)
            let rule = WordRule.for(try #require(LanguageTag(locale)))
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let answer = try await client.startSession(LanguageFixtures.request(locale: locale))
                    #expect(answer.source == .model)
                    #expect(answer.prompts.allSatisfy { written.contains($0.text) }, "\(answer.prompts.map(\.text))")
                    #expect(answer.prompts.allSatisfy { $0.wordCount == rule.count($0.text) && rule.range.contains($0.wordCount) })
                    #expect(answer.copyLocale == language)
                }
            }
        }
    }
}
