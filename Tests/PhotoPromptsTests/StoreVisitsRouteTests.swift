import Foundation
import GRDB
import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import Synchronization
import Testing

/// How often one request goes to the store, counted on the twin: every read or write the store makes is one
/// transaction, so the transactions SQLite sees between two requests are the request's visits. The table is
/// docs/ARCHITECTURE.md's; a visit added to a request kind fails here.
@Suite("Store visits per request kind, counted on the store twin")
struct StoreVisitsRouteTests {
    /// Each transaction since the last `take()`, as "write" (one that changed a row), "read+cache" (a read that
    /// looked in the cache table) or "read".
    final class Visits: Sendable {
        private let state = Mutex<(visits: [String], open: Bool, wrote: Bool, cache: Bool)>(([], false, false, false))

        func observe(_ statement: String) {
            let sql = statement.uppercased()
            state.withLock { state in
                if sql.hasPrefix("BEGIN") {
                    (state.open, state.wrote, state.cache) = (true, false, false)
                } else if sql.hasPrefix("COMMIT") || sql.hasPrefix("ROLLBACK") {
                    if state.open { state.visits.append(state.wrote ? "write" : state.cache ? "read+cache" : "read") }
                    state.open = false
                } else if sql.hasPrefix("INSERT") || sql.hasPrefix("UPDATE") || sql.hasPrefix("DELETE") || sql.hasPrefix("WITH") {
                    state.wrote = true
                } else if sql.contains("CACHEENTRY") {
                    state.cache = true
                }
            }
        }

        /// The visits since the last call, sorted: reads, then writes.
        func take() -> [String] {
            state.withLock { state in
                defer { state.visits = [] }
                return state.visits.sorted()
            }
        }
    }

    /// A store on a database in memory whose statements `visits` sees.
    static func countedStore(_ visits: Visits) throws -> SQLitePromptStore {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.trace { visits.observe($0.expandedDescription) } }
        return try SQLitePromptStore(writer: DatabaseQueue(configuration: configuration))
    }

    @Test("Each request kind visits the store as often as docs/ARCHITECTURE.md's table says, and no more")
    func visitsPerRequestKind() async throws {
        let visits = Visits()
        let store = try Self.countedStore(visits)
        // No stats flush runs inside the test's requests: those counters are written on the flush's own schedule.
        var environment = baseEnvironment()
        environment["STATS_FLUSH_INTERVAL"] = "3600"
        try await withRouterService(environment, store: store) { client in
            let user = client.asUser("u_visits")
            _ = visits.take()
            let first = try await user.startSession(FreshPromptsRouteTests.beach)
            #expect(first.source == .model)
            #expect(visits.take() == ["read+cache", "write"], "a cache miss: the history and the cache entry in one read, then the session")

            let hit = try await client.asUser("u_other").startSession(FreshPromptsRouteTests.beach)
            #expect(hit.source == .cache)
            #expect(visits.take() == ["read", "write"], "a cache hit from memory: the history, then the session")

            // A refresh from the surplus is the reservation (with the turn, the session and the history) and the
            // commit. One that asks the model looks for the round's cache entry first, and the entry the model's
            // answer makes goes in the same commit. The stub writes six: surplus, model, surplus.
            var refreshes: [[String]] = []
            for _ in 0..<3 {
                #expect(try await user.refresh(first.sessionID).status == 200)
                refreshes.append(visits.take())
            }
            #expect(refreshes == [["write", "write"], ["read+cache", "write", "write"], ["write", "write"]])

            let feedback = try await user.post(
                "/v1/sessions/\(first.sessionID)/feedback",
                json: #"{"prompt_id": "\#(first.prompts[0].id)", "action": "selected"}"#
            )
            #expect(feedback.status == 200 || feedback.status == 201)
            #expect(visits.take() == ["write"], "feedback is one write")
        }
    }
}
