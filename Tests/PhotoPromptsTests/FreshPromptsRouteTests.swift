import Foundation
import GRDB
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import Testing

/// A user never meets the same prompt twice, exactly or nearly: not in one answer, not across a session's refreshes,
/// not across their sessions inside the history window. The cache is still every user's.
@Suite("Fresh prompts: one user's history, through the router")
struct FreshPromptsRouteTests {
    static let beach = #"{"photo": {"labels": ["beach", "sunset"], "location": {"name": "Praia da Rocha"}}}"#

    /// Twelve good, different questions about the beach photo: one model reply, enough for four answers.
    static let twelve = [
        "What did the sand feel like under your feet at sunset?",
        "Who was standing beside you when this beach photo was taken?",
        "Which sound from the waves would you like to hear again tonight?",
        "What were you hoping for as the evening light faded over the water?",
        "How did the salty wind change your mood during that walk?",
        "What snack or drink did you bring along to the shore?",
        "Why did you decide to take this picture at that exact moment?",
        "What would you tell a friend who has never visited Praia da Rocha?",
        "Which color in the sky surprised you most that evening?",
        "What had happened earlier that day before you reached the coast?",
        "How might you celebrate a return trip to this place someday?",
        "What small detail of the scene do you want to remember forever?",
    ]

    @Test("One user opens the same photo three times: nine cards, none met before, and the second session is a cache hit")
    func samePhotoThreeTimes() async throws {
        try await withRouterService(baseEnvironment()) { client in
            var texts: [String] = []
            var sources: [PromptSource] = []
            for _ in 0..<3 {
                let answer = try await client.startSession(Self.beach)
                texts += answer.prompts.map(\.text)
                sources.append(answer.source)
            }
            #expect(texts.count == 9)
            #expect(PlainRepeats.pairs(in: texts).isEmpty, "\(PlainRepeats.pairs(in: texts))")
            #expect(sources[0] == .model)
            #expect(sources[1] == .cache, "the first answer's surplus is still in the cache for this user")
            #expect(sources[2] != .fallback, "the model is asked for more, told what the user met")
        }
    }

    @Test("A user's fourth answer for one photo meets none of the nine cards of their first three, all read from the history")
    func fourthAnswerAvoidsTheFirst() async throws {
        let backend = ScriptedBackend(name: "m", replies: [Self.twelve])
        try await withRouterService(baseEnvironment(), backends: [backend]) { client in
            let user = client.asUser("u_four")
            var answers: [[String]] = []
            for _ in 0..<4 { answers.append(try await user.startSession(Self.beach).prompts.map(\.text)) }
            #expect(backend.calls == 1, "one reply, then the cache")
            #expect(answers.joined().allSatisfy(Self.twelve.contains), "\(answers)")
            #expect(Set(answers.joined()).count == 12, "four answers, twelve different cards: \(answers)")
        }
    }

    @Test("Two users with the same photo share the cache: the second is answered from it with the first one's cards")
    func usersShareTheCache() async throws {
        try await withRouterService(baseEnvironment()) { client in
            var first = client
            first.userID = "u_first"
            var second = client
            second.userID = "u_second"
            let answer = try await first.startSession(Self.beach)
            let shared = try await second.startSession(Self.beach)
            #expect(shared.source == .cache)
            #expect(shared.prompts.map(\.text) == answer.prompts.map(\.text))
        }
    }

    @Test("An unsupported_language user who refreshes five times sees 18 different cards")
    func fallbacksLastFiveRefreshes() async throws {
        let environment = baseEnvironment().merging(["LLM_LANGUAGES": "en"]) { $1 }
        try await withRouterService(environment) { client in
            let first = try await client.startSession(#"{"locale": "es-ES", "photo": {"labels": ["beach"]}}"#)
            #expect(first.fallbackReason == .unsupportedLanguage)
            var texts = first.prompts.map(\.text)
            for _ in 0..<5 {
                let reply = try await client.refresh(first.sessionID)
                #expect(reply.status == 200)
                let answer = try reply.decode(PromptsResponse.self)
                #expect(answer.fallbackReason == .unsupportedLanguage)
                texts += answer.prompts.map(\.text)
            }
            #expect(texts.count == 18)
            #expect(Set(texts).count == 18)
            #expect(PlainRepeats.pairs(in: texts).isEmpty, "\(PlainRepeats.pairs(in: texts))")
            // A new session of the same user goes on through the copy rather than starting it again.
            let next = try await client.startSession(#"{"locale": "es-ES", "photo": {"labels": ["beach"]}}"#)
            #expect(next.prompts.count == 3)
        }
    }

    @Test("A fallback answer for a photo with a place names it first, in the user's language")
    func photoAwareFallbacksFirst() async throws {
        let environment = baseEnvironment().merging(["LLM_LANGUAGES": "en"]) { $1 }
        try await withRouterService(environment) { client in
            let answer = try await client.startSession(#"{"locale": "es-ES", "photo": {"location": {"name": "Kyoto"}}}"#)
            #expect(answer.fallbackReason == .unsupportedLanguage)
            #expect(answer.prompts.prefix(2).allSatisfy { $0.text.contains("Kyoto") }, "\(answer.prompts.map(\.text))")
            #expect(!answer.prompts[2].text.contains("Kyoto"))
        }
    }

    @Test("PROMPT_HISTORY_DAYS=0 keeps no history: none is written, and the same photo gives the same cards again")
    func historyOff() async throws {
        let environment = baseEnvironment().merging(["PROMPT_HISTORY_DAYS": "0"]) { $1 }
        let store = try InMemoryDatabase().open()
        try await withRouterService(environment, store: store) { client in
            let first = try await client.startSession(Self.beach)
            let again = try await client.startSession(Self.beach)
            #expect(again.prompts.map(\.text) == first.prompts.map(\.text))
            let rows = try await store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM promptHistory") }
            #expect(rows == 0, "no history row is written")
        }
    }

    @Test("A history entry lapses with its window: after it, the user may meet a card again")
    func historyLapses() async throws {
        let clock = ManualWallClock()
        let environment = baseEnvironment().merging(["PROMPT_HISTORY_DAYS": "1"]) { $1 }
        try await withRouterService(environment, clock: clock) { client in
            let first = try await client.startSession(Self.beach)
            let nextDay = try await client.startSession(Self.beach)
            #expect(Set(nextDay.prompts.map(\.text)).isDisjoint(with: first.prompts.map(\.text)))
            clock.advance(by: 2 * 86_400)
            let later = try await client.startSession(Self.beach)
            #expect(!Set(later.prompts.map(\.text)).isDisjoint(with: first.prompts.map(\.text) + nextDay.prompts.map(\.text)))
        }
    }

    @Test("The history is in the user's export as hashes and signatures, without text, and delete erases it")
    func exportAndDelete() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let answer = try await client.startSession(Self.beach)
            let export = try await client.send("GET", "/v1/users/\(sampleUserID)/export")
            #expect(export.status == 200)
            let history = try #require(try export.json["prompt_history"] as? [[String: Any]])
            #expect(history.count == 3)
            let historyJSON = String(decoding: try JSONSerialization.data(withJSONObject: history), as: UTF8.self)
            for prompt in answer.prompts {
                #expect(!historyJSON.contains(prompt.text))
            }
            #expect(history.allSatisfy { ($0["key"] as? String)?.count == 16 && ($0["signature"] as? String)?.isEmpty == false })
            let deleted = try await client.send("DELETE", "/v1/users/\(sampleUserID)")
            #expect(try (deleted.json["deleted"] as? [String: Any])?["prompt_history"] as? Int == 1, "one answer's entry")
            let after = try await client.send("GET", "/v1/users/\(sampleUserID)/export")
            #expect(try (after.json["prompt_history"] as? [Any])?.isEmpty == true)
        }
    }
}
