import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import StubLLM
import Testing

extension SystemTests {
    @Suite("Expiry of sessions and cache entries, on an injected clock")
    struct ExpiryTests {
        @Test("A session answers 404 once SESSIONS_TTL has passed")
        func sessionExpires() async throws {
            let clock = ManualWallClock()
            try await withService(testEnvironment(stub: nil), clock: clock) { client in
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

        @Test("A cache entry is served until CACHE_TTL, then the backend is asked again")
        func cacheExpires() async throws {
            let clock = ManualWallClock()
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub), clock: clock) { client in
                    _ = try await client.startSession()
                    clock.advance(by: 604_800 - 1)
                    #expect(try await client.startSession().source == .cache)
                    clock.advance(by: 2)
                    #expect(try await client.startSession().source == .model)
                    #expect(await stub.calls == 2)
                }
            }
        }

        @Test("Pruning deletes expired sessions with their prompts, and expired cache entries, from the SQLite file")
        func pruning() async throws {
            let path = temporaryDatabasePath()
            let clock = ManualWallClock()
            let sessionID = try await withService(testEnvironment(stub: nil, databasePath: path), clock: clock) { client in
                try await client.startSession().sessionID
            }
            let store = try SQLitePromptStore(path: path)
            #expect(try await store.pruneExpired(now: clock.now) == PruneCount(sessions: 0, cacheEntries: 0))
            #expect(try await store.session(id: sessionID, now: clock.now) != nil)
            let later = clock.now.addingTimeInterval(604_800 + 1)
            #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 1, cacheEntries: 1))
            #expect(try await store.session(id: sessionID, now: clock.now) == nil, "gone even for a reader whose clock says it is valid")
        }

        @Test("The pruning service sweeps at start-up, without being asked")
        func pruningServiceRunsAtStart() async throws {
            let path = temporaryDatabasePath()
            let clock = ManualWallClock()
            let sessionID = try await withService(testEnvironment(stub: nil, databasePath: path), clock: clock) { client in
                try await client.startSession().sessionID
            }
            clock.advance(by: 604_800 + 1)
            let store = try SQLitePromptStore(path: path)
            let service = ExpiryPruningService(store: store, clock: clock, interval: .seconds(3600), logger: .init(label: "test"))
            let task = Task { try await service.run() }
            defer { task.cancel() }
            let deadline = ContinuousClock.now + .seconds(10)
            var remaining = try await store.session(id: sessionID, now: .distantPast)
            while remaining != nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                remaining = try await store.session(id: sessionID, now: .distantPast)
            }
            #expect(remaining == nil)
        }
    }
}
