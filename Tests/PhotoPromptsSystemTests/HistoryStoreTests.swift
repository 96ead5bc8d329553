import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import Testing

extension SystemTests {
    /// A user's prompt history on both stores: written with the rounds that show it, read by every instance, kept
    /// across restarts, pruned with its window, erased with the user.
    @Suite("The prompt history, on SQLite and PostgreSQL")
    struct HistoryStoreTests {
        static let now = StoreContractTests.now
        static let week: TimeInterval = 7 * 86_400

        static func session(userID: String = "u_1", until: Date? = now.addingTimeInterval(week)) -> NewSession {
            var session = StoreContractTests.session(userID: userID)
            session.historyUntil = until
            return session
        }

        @Test("A session's first round and its refresh join the user's history, newest first, with no text", arguments: StoreKind.withTwin)
        func writtenWithRounds(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                let session = Self.session()
                try await store.createSession(session)
                _ = try await store.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: StoreContractTests.owner)
                let later = Self.now.addingTimeInterval(60)
                let refresh = StoreContractTests.draft(round: 1)
                _ = try await store.commitRefresh(sessionID: session.id, now: later, historyUntil: later.addingTimeInterval(Self.week)) { _ in
                    refresh
                }
                let history = try await store.promptHistory(client: "ios", userID: "u_1", now: Self.now, limit: 100)
                let language = LanguageTag("en-GB")!
                let expected =
                    (refresh.prompts.map { SeenPrompt($0, language: language, shownAt: later) }
                        + session.firstRound.prompts.map { SeenPrompt($0, language: language, shownAt: Self.now) })
                #expect(Set(history.map(\.key)) == Set(expected.map(\.key)))
                #expect(history.prefix(3).allSatisfy { $0.shownAt == later }, "newest first")
                #expect(Set(history.map(\.signature)) == Set(expected.map(\.signature)))
                #expect(try await store.promptHistory(client: "ios", userID: "u_1", now: Self.now, limit: 1).count == 3, "one answer")
                #expect(try await store.promptHistory(client: "web", userID: "u_1", now: Self.now, limit: 100).isEmpty, "another client's user")
                try await store.close()
            }
        }

        @Test("No user, or no window, keeps no history", arguments: StoreKind.withTwin)
        func nothingKeptWithoutWindow(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                try await store.createSession(Self.session(userID: "u_off", until: nil))
                #expect(try await store.promptHistory(client: "ios", userID: "u_off", now: Self.now, limit: 100).isEmpty)
                try await store.close()
            }
        }

        @Test("Another instance, or the same file reopened after a restart, reads the history", arguments: StoreKind.withTwin)
        func sharedAndDurable(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let first = try await database.open()
                try await first.createSession(Self.session())
                try await first.close()
                let second = try await database.open()
                #expect(try await second.promptHistory(client: "ios", userID: "u_1", now: Self.now, limit: 100).count == 3)
                try await second.close()
            }
        }

        @Test("Entries past their window are not read, the expiry sweep removes them, and delete erases the rest", arguments: StoreKind.withTwin)
        func prunedAndErased(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                try await store.createSession(Self.session(userID: "u_old", until: Self.now.addingTimeInterval(60)))
                try await store.createSession(Self.session(userID: "u_1"))
                let afterWindow = Self.now.addingTimeInterval(120)
                #expect(try await store.promptHistory(client: "ios", userID: "u_old", now: afterWindow, limit: 100).isEmpty)
                let pruned = try await store.pruneExpired(now: afterWindow)
                #expect(pruned.historyEntries == 1, "one answer's entry")
                #expect(try await store.exportUser(client: "ios", userID: "u_1").history.count == 3)
                let deleted = try await store.deleteUser(client: "ios", userID: "u_1")
                #expect(deleted.historyEntries == 1)
                #expect(try await store.promptHistory(client: "ios", userID: "u_1", now: Self.now, limit: 100).isEmpty)
                try await store.close()
            }
        }
    }
}
