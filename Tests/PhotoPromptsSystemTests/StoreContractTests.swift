import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PostgresNIO
import PromptDomain
import PromptStores
import Testing

extension SystemTests {
    /// One suite, two stores: every rule of ``PromptStore`` is checked on SQLite and on PostgreSQL alike. Where a rule
    /// is about several instances, the test opens the same database twice, as two instances would.
    @Suite("The store's rules, on SQLite and PostgreSQL")
    struct StoreContractTests {
        static let now = Date(timeIntervalSince1970: 1_780_000_000)
        static let owner = Caller(client: "ios", userID: "u_1")

        @Test("A session and its first round read back as written, and stop answering when expired", arguments: StoreKind.withTwin)
        func sessionRoundTrip(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                let session = Self.session(surplus: [ValidPrompt(text: "What did the light feel like here?", wordCount: 7)])
                try await store.createSession(session)

                let read = try #require(try await store.session(id: session.id, now: Self.now))
                #expect(read.owner == "ios" && read.userID == "u_1" && read.locale == LanguageTag(locale: "en-GB"))
                #expect(read.photo == session.photo)
                #expect(read.template == session.template)
                #expect(read.surplus.map(\.text) == ["What did the light feel like here?"])
                #expect(read.rounds.count == 1)
                #expect(read.rounds[0].prompts == session.rounds[0].prompts)
                #expect(read.rounds[0].answeredBy == BackendIdentity(provider: "stub", model: "stub-1"))
                #expect(read.rounds[0].templateVersion == "v-abc")
                #expect(try await store.session(id: session.id, now: session.expiresAt) == nil)
                #expect(try await store.session(id: "missing", now: Self.now) == nil)
                try await store.close()
            }
        }

        @Test("Every field of the photo and the surplus reads back as written, whatever characters it holds", arguments: StoreKind.withTwin)
        func everyFieldReadsBack(kind: StoreKind) async throws {
            // Both stores keep these as JSON text: every stored property is set, with text that needs escaping, and the
            // check below fails when a property is added but not set here.
            let awkward = "Quote \" back\\slash\ttab\nline \u{1} bell\u{7} café 海辺 🎉 </photo> \u{2028}"
            let photo = PhotoMetadata.everyField(text: awkward, peopleCount: 0)
            #expect(unsetProperties(of: photo).isEmpty, "set every property: \(unsetProperties(of: photo))")
            var surplus = [
                ValidPrompt(text: awkward, wordCount: 9, answeredBy: BackendIdentity(provider: "open\"ai", model: "m\\1")),
                ValidPrompt(text: "What did the light feel like here?", wordCount: 7),
            ]
            // Set so the check below sees every property; not stored (it is worked out again from the text) and not
            // part of equality.
            surplus[0].signature = PromptSignature(awkward, language: .english)
            #expect(unsetProperties(of: surplus[0]).isEmpty, "set every property: \(unsetProperties(of: surplus[0]))")
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                var session = Self.session(surplus: surplus)
                session.photo = photo
                try await store.createSession(session)
                let read = try #require(try await store.session(id: session.id, now: Self.now))
                #expect(read.photo == photo)
                #expect(read.surplus == surplus)
                #expect(read.rounds[0].answeredBy == session.rounds[0].answeredBy)
                try await store.close()
            }
        }

        @Test("Sessions and rounds survive closing the store and opening it again", arguments: StoreKind.withTwin)
        func survivesRestart(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let session = Self.session()
                let first = try await database.open()
                try await first.createSession(session)
                guard case .reserved = try await first.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: Self.owner) else {
                    Issue.record("the first refresh was not reserved")
                    return
                }
                _ = try await first.commitRefresh(sessionID: session.id, now: Self.now) { _ in Self.draft(round: 1) }
                try await first.close()

                let reopened = try await database.open()
                let read = try #require(try await reopened.session(id: session.id, now: Self.now))
                #expect(read.refreshesUsed == 1)
                #expect(read.rounds.map(\.round) == [0, 1])
                #expect(try await database.appliedMigrations() == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"])
                try await reopened.close()
            }
        }

        // MARK: Fixtures

        static func prompt(id: String, text: String) -> Prompt {
            Prompt(id: id, text: text, wordCount: text.split(separator: " ").count, source: .model)
        }

        static func draft(round: Int) -> SessionRound {
            SessionRound(
                source: .model,
                prompts: (0..<3).map { prompt(id: "r\(round)-\($0)", text: "What were you thinking about in round \(round), moment \($0)?") },
                createdAt: now,
                answeredBy: BackendIdentity(provider: "stub", model: "stub-1"),
                templateVersion: "v-abc"
            )
        }

        static func session(
            id: String = "s-\(UUID().uuidString)",
            userID: String = "u_1",
            expiresAt: Date = now.addingTimeInterval(86_400),
            surplus: [ValidPrompt] = []
        ) -> SessionSnapshot {
            var first = draft(round: 0)
            first.prompts = first.prompts.map { Prompt(id: "\(id)-\($0.id)", text: $0.text, wordCount: $0.wordCount, source: $0.source) }
            first.surplus = surplus
            return SessionSnapshot(
                id: id,
                owner: "ios",
                userID: userID,
                locale: LanguageTag(locale: "en-GB"),
                photo: PhotoMetadata(takenAt: "2026-11-01T09:30:00+01:00", labels: ["beach", "dog"], peopleCount: 2, caption: "Morning walk"),
                template: TemplateIdentity(name: "photo-journal", version: "v-abc"),
                refreshesUsed: 0,
                createdAt: now,
                expiresAt: expiresAt,
                surplus: surplus,
                rounds: [first]
            )
        }
    }
}

/// A failed expectation about an enum case, with what was found instead.
struct StoreTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
