import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptStores
import StubLLM
import Testing

@Suite("Expiry of cache entries and the pruning service, on an injected clock")
struct CacheExpiryTests {
    @Test("A cache entry is served until CACHE_TTL, then the backend is asked again")
    func cacheExpires() async throws {
        let clock = ManualWallClock()
        let stub = StubBehaviourBackend()
        try await withRouterService(clock: clock, backends: [stub]) { client in
            // Three users: one user's history would keep the prompts they met from them, cached or not.
            _ = try await client.startSession()
            clock.advance(by: 604_800 - 1)
            #expect(try await client.startSession(samplePhotoRequest(userID: "u_second")).source == .cache)
            clock.advance(by: 2)
            #expect(try await client.startSession(samplePhotoRequest(userID: "u_third")).source == .model)
            #expect(await stub.calls == 2)
        }
    }

    @Test("The pruning service sweeps at start-up, without being asked")
    func pruningServiceRunsAtStart() async throws {
        let path = temporaryDatabasePath()
        let clock = ManualWallClock()
        let sessionID = try await withRouterService(baseEnvironment(databasePath: path), clock: clock) { client in
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
