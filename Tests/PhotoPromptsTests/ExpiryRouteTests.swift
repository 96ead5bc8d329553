import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import Testing

/// Sessions and cache entries past their time. The sweep at start-up, which needs the running service, stays in the system layer.
@Suite("Expiry through the router, on an injected clock: sessions past their TTL, and pruning")
struct ExpiryRouteTests {
    @Test("A session answers 404 once SESSIONS_TTL has passed")
    func sessionExpires() async throws {
        let clock = ManualWallClock()
        try await withRouterService(baseEnvironment(), clock: clock) { client in
            let session = try await client.startSession()
            clock.advance(by: 86_400 - 1)
            #expect(try await client.session(session.sessionID).status == 200)
            clock.advance(by: 2)
            let expired = try await client.session(session.sessionID)
            #expect(expired.status == 404)
            #expect(expired.errorCode == "session_not_found")
            #expect(try await client.refresh(session.sessionID).status == 404)
        }
    }

    @Test("Pruning deletes expired sessions with their prompts, and expired cache entries, from the SQLite file")
    func pruning() async throws {
        let path = temporaryDatabasePath()
        let clock = ManualWallClock()
        let sessionID = try await withRouterService(baseEnvironment(databasePath: path), clock: clock) { client in
            try await client.startSession().sessionID
        }
        let store = try SQLitePromptStore(path: path)
        #expect(try await store.pruneExpired(now: clock.now) == PruneCount(sessions: 0, cacheEntries: 0))
        #expect(try await store.session(id: sessionID, now: clock.now) != nil)
        let later = clock.now.addingTimeInterval(604_800 + 1)
        #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 1, cacheEntries: 1))
        #expect(try await store.session(id: sessionID, now: clock.now) == nil, "gone even for a reader whose clock says it is valid")
    }
}
