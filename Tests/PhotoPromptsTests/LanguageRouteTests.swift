import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

/// The user's language where the embedded stub is enough.
@Suite("Languages through the router: the limit's copy and invalid locales")
struct LanguageRouteTests {
    @Test("The refresh limit's message is in the session's language", .timeLimit(.minutes(1)))
    func refreshLimitMessage() async throws {
        let korean = try LanguageFixtures.copy("ko")
        var environment = baseEnvironment()
        environment["SESSIONS_REFRESH_LIMIT"] = "1"
        try await withRouterService(environment) { client in
            let answer = try await client.startSession(LanguageFixtures.request(locale: "ko-KR"))
            #expect(try await client.refresh(answer.sessionID).status == 200)
            let refused = try await client.refresh(answer.sessionID)
            #expect(refused.status == 429)
            #expect(try refused.json["error"].flatMap { ($0 as? [String: Any])?["message"] as? String } == korean.refreshLimitMessage)
            #expect(refused.lookup["copy_locale"].string == "ko")
        }
    }

    @Test(
        "A locale that is not a language tag is a 400 naming locale",
        arguments: ["<script>", "en-", "ja_JP@calendar=japanese", "ja JP", "en-US.UTF-8", "i-klingon", String(repeating: "a", count: 36)]
    )
    func invalidLocale(locale: String) async throws {
        try await withRouterService(baseEnvironment()) { client in
            let reply = try await client.post("/v1/prompts", json: LanguageFixtures.request(locale: locale))
            #expect(reply.status == 400)
            #expect(reply.errorDetails == ["locale"])
        }
    }
}
