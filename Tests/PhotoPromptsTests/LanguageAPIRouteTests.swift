import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain
import StubLLM
import StubModel
import Testing

@Suite("Every user's language, through the router")
struct LanguageAPIRouteTests {
    /// Every shipped language but English, with the copy each is answered in.
    static let languages = [
        ("ja-JP", "ja"), ("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant"), ("th-TH", "th"), ("ar-EG", "ar"), ("de-DE", "de"),
        ("es-ES", "es"), ("ko-KR", "ko"), ("hi-IN", "hi"), ("fr-FR", "fr"), ("it-IT", "it"), ("pt-BR", "pt"),
    ]

    @Test(
        "A user gets model prompts in their language, counted under its rule, from stub-llm's writer and from the embedded stub",
        arguments: [true, false]
    )
    func modelPromptsInTheLanguage(fromStubLLM: Bool) async throws {
        // One app for the twelve languages, each asked by a user of its own: an app per language cost a second of
        // the fast layer's time.
        try await withRouterService(backends: fromStubLLM ? [StubBehaviourBackend()] : nil) { client in
            for (locale, language) in Self.languages {
                let written = LanguageFixtures.stubQuestions(locale: locale)
                let rule = WordRule.for(try #require(LanguageTag(locale)))
                let answer = try await client.asUser("u_\(locale)").startSession(LanguageFixtures.request(locale: locale))
                #expect(answer.source == .model, "\(locale)")
                #expect(answer.prompts.allSatisfy { written.contains($0.text) }, "\(locale): \(answer.prompts.map(\.text))")
                #expect(answer.prompts.allSatisfy { $0.wordCount == rule.count($0.text) && rule.range.contains($0.wordCount) }, "\(locale)")
                #expect(answer.copyLocale == language, "\(locale)")
            }
        }
    }

    @Test("A fallback speaks the user's language: ja-JP gets the Japanese prompts and message, counted in Japanese words")
    func japaneseFallback() async throws {
        let japanese = try LanguageFixtures.copy("ja")
        let stub = StubBehaviourBackend(.serverError)
        try await withRouterService(backends: [stub]) { client in
            let answer = try await client.startSession(LanguageFixtures.request(locale: "ja-JP"))
            #expect(answer.source == .fallback)
            #expect(answer.prompts.map(\.text) == Array(japanese.fallbacks.texts.prefix(3)))
            #expect(answer.message == japanese.errorMessage)
            #expect(answer.message == "AIがプロンプトを作成できませんでした。自由に書いてみましょう。")
            #expect(answer.copyLocale == "ja")
            let rule = WordRule.for(try #require(LanguageTag("ja")))
            #expect(answer.prompts.map(\.wordCount) == answer.prompts.map { rule.count($0.text) })
        }
    }

    @Test("A slow model's timeout message is in the user's language too")
    func timeoutMessage() async throws {
        let german = try LanguageFixtures.copy("de-DE")
        // A backend that reports its timeout at once: what is checked is the copy, not a clock, so a busy run cannot
        // turn the answer into a missed deadline.
        try await withRouterService(baseEnvironment(), backends: [TimedOutBackend()]) { client in
            let answer = try await client.startSession(LanguageFixtures.request(locale: "de-DE"))
            #expect(answer.fallbackReason == .timeout)
            #expect(answer.message == german.timeoutMessage)
            #expect(answer.prompts.map(\.text) == Array(german.fallbacks.texts.prefix(3)))
        }
    }

    @Test("A locale with no shipped copy (tlh, nl-NL) gets English, and says so")
    func englishWhenNothingMatches() async throws {
        let stub = StubBehaviourBackend(.serverError)
        try await withRouterService(backends: [stub]) { client in
            for locale in ["tlh", "nl-NL"] {
                // A user each: one user's second fallback answer goes on through the copy.
                var client = client
                client.userID = "u_\(locale)"
                let answer = try await client.startSession(LanguageFixtures.request(locale: locale))
                #expect(answer.prompts.map(\.text) == productFallbacks)
                #expect(answer.message == "AI couldn't generate prompts. Write your own entry.")
                #expect(answer.copyLocale == "en")
            }
        }
    }

    @Test("en_US is stored, cached and rendered as en-US: the two spellings share one cache entry")
    func normalised() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            let first = try await client.startSession(LanguageFixtures.request(locale: "en_US"))
            #expect(try await client.session(first.sessionID).lookup["locale"].string == "en-US")
            let second = try await client.startSession(LanguageFixtures.request(locale: "en-US"))
            #expect(second.source == .cache)
            #expect(await stub.calls == 1)
        }
    }

    @Test("The template tells the model the language by name and the word range of that language")
    func templateNamesTheLanguage() async throws {
        let stub = StubBehaviourBackend()
        try await withRouterService(backends: [stub]) { client in
            _ = try await client.startSession(LanguageFixtures.request(locale: "ja-JP"))
            let body = await stub.lastRequestText
            #expect(body.contains("in Japanese (locale ja-JP)"))
            #expect(body.contains("11 to 21 words"))
        }
    }

    @Test("An edited translation is picked up by hot reload, and a broken one is refused while the old copy serves")
    func translationHotReload() async throws {
        let prompts = try TemporaryPrompts()
        let stub = StubBehaviourBackend(.serverError)
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [stub]) { client in
            var file = try JSONSerialization.jsonObject(with: Data(try prompts.read("copy/ja.json").utf8)) as! [String: Any]
            var messages = file["messages"] as! [String: String]
            messages["error"] = "AIは今お休み中です。自由に書いてみましょう。"
            file["messages"] = messages
            try prompts.write("copy/ja.json", String(decoding: try JSONSerialization.data(withJSONObject: file), as: UTF8.self))
            #expect(try await client.admin("POST", "/templates/reload").status == 200)
            let live = try await client.admin("GET", "/templates").lookup["live", "copy_locales"].array as? [String]
            #expect(live == ["ar", "de", "en", "es", "fr", "hi", "it", "ja", "ko", "pt", "th", "zh-Hans", "zh-Hant"])
            #expect(try await client.startSession(LanguageFixtures.request(locale: "ja-JP")).message == "AIは今お休み中です。自由に書いてみましょう。")

            messages["error"] = nil
            file["messages"] = messages
            try prompts.write("copy/ja.json", String(decoding: try JSONSerialization.data(withJSONObject: file), as: UTF8.self))
            let refused = try await client.admin("POST", "/templates/reload")
            #expect(refused.status == 422)
            #expect(refused.errorDetails.first?.hasPrefix("copy/ja.json") == true)
            #expect(try await client.startSession(LanguageFixtures.request(locale: "ja-JP")).message == "AIは今お休み中です。自由に書いてみましょう。")
        }
    }
}

/// A backend whose every call ends as a timeout, at once.
private struct TimedOutBackend: LLMBackend {
    let identity = BackendIdentity(provider: "timed-out", model: "none")

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        throw BackendError.timedOut("the test's backend always times out")
    }
}
