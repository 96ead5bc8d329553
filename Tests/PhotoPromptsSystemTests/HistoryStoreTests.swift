import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import Testing

extension SystemTests {
    /// A user's prompt history on both stores: written with the rounds that show it, read by every instance, kept
    /// across restarts, pruned with its window, erased with the user.
    @Suite("The prompt history, on SQLite and PostgreSQL")
    struct HistoryStoreTests {
        static let now = StoreContractTests.now
        static let week: TimeInterval = 7 * 86_400

        /// A new session of `userID`, created in `store` with its round in the history until `until`.
        @discardableResult
        static func created(
            in store: any PromptStore,
            userID: String = "u_1",
            until: Date? = now.addingTimeInterval(week),
            caching entry: CacheEntry? = nil
        ) async throws -> SessionSnapshot {
            let session = StoreContractTests.session(userID: userID)
            try await store.createSession(session, historyUntil: until, caching: entry)
            return session
        }

        @Test("One read gives a first answer the user's history and the cache entry; without a user, the entry alone", arguments: StoreKind.withTwin)
        func historyWithTheCacheEntry(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                let entry = CacheEntry(key: "k-1", prompts: [], expiresAt: Self.now.addingTimeInterval(60))
                try await Self.created(in: store, caching: entry)
                let (history, cached) = try await store.promptHistory(client: "ios", userID: "u_1", now: Self.now, limit: 10, cacheKey: "k-1")
                #expect(history.count == 3 && cached?.key == "k-1")
                let (none, alone) = try await store.promptHistory(client: "ios", userID: nil, now: Self.now, limit: 10, cacheKey: "k-1")
                #expect(none.isEmpty && alone?.expiresAt == entry.expiresAt)
                let (_, expired) = try await store.promptHistory(client: "ios", userID: "u_1", now: entry.expiresAt, limit: 10, cacheKey: "k-1")
                #expect(expired == nil, "an expired entry is not read")
                let (_, missing) = try await store.promptHistory(client: "ios", userID: "u_1", now: Self.now, limit: 10, cacheKey: "k-2")
                #expect(missing == nil)
                try await store.close()
            }
        }

        @Test(
            "A reservation that takes the free turn reads the session and the user's history with it; the next holder waits until the commit ends it",
            arguments: StoreKind.withTwin
        )
        func turnTakenWithTheReservation(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                let session = try await Self.created(in: store)
                let owner = StoreContractTests.owner
                let first = try await store.reserveRefresh(
                    sessionID: session.id,
                    limit: 5,
                    now: Self.now,
                    caller: owner,
                    turn: "t-1",
                    historyLimit: 10
                )
                guard case .reserved(1, let start?) = first else { throw StoreTestFailure("no start with the turn: \(first)") }
                #expect(start.session.id == session.id)
                #expect(start.session.rounds.map(\.prompts.count) == [3])
                let language = LanguageTag("en-GB")!
                #expect(start.history.map(\.key) == session.rounds[0].prompts.map { SeenPrompt($0, language: language, shownAt: Self.now).key })
                // Another refresh gets its slot, but not the turn, and so reads nothing.
                let second = try await store.reserveRefresh(
                    sessionID: session.id,
                    limit: 5,
                    now: Self.now,
                    caller: owner,
                    turn: "t-2",
                    historyLimit: 10
                )
                #expect(second == .reserved(ordinal: 2))
                #expect(try await store.takeRefreshTurn(sessionID: session.id, holder: "t-2", now: Self.now) == false)
                _ = try await store.commitRefresh(sessionID: session.id, now: Self.now, historyUntil: nil, turnHolder: "t-1", caching: nil) { _ in
                    StoreContractTests.draft(round: 1)
                }
                #expect(try await store.takeRefreshTurn(sessionID: session.id, holder: "t-2", now: Self.now), "the commit ended the turn")
                // Without a history limit, no history is read.
                try await store.endRefreshTurn(sessionID: session.id, holder: "t-2")
                let third = try await store.reserveRefresh(
                    sessionID: session.id,
                    limit: 5,
                    now: Self.now,
                    caller: owner,
                    turn: "t-3",
                    historyLimit: nil
                )
                guard case .reserved(_, let bare?) = third else { throw StoreTestFailure("no start with the turn: \(third)") }
                #expect(bare.history.isEmpty && bare.session.rounds.count == 2)
                try await store.close()
            }
        }

        @Test("A session's first round and its refresh join the user's history, newest first, with no text", arguments: StoreKind.withTwin)
        func writtenWithRounds(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                let session = try await Self.created(in: store)
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
                        + session.rounds[0].prompts.map { SeenPrompt($0, language: language, shownAt: Self.now) })
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
                try await Self.created(in: store, userID: "u_off", until: nil)
                #expect(try await store.promptHistory(client: "ios", userID: "u_off", now: Self.now, limit: 100).isEmpty)
                try await store.close()
            }
        }

        @Test("Another instance, or the same file reopened after a restart, reads the history", arguments: StoreKind.withTwin)
        func sharedAndDurable(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let first = try await database.open()
                try await Self.created(in: first)
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
                try await Self.created(in: store, userID: "u_old", until: Self.now.addingTimeInterval(60))
                try await Self.created(in: store, userID: "u_1")
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
