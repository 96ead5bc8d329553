import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import Testing

@testable import PhotoPrompts

/// `buildApplication` takes the store a test hands it, in place of the configured one: the routes then read and
/// write that store, and no database file is opened.
@Suite("An injected store")
struct InjectedStoreRouteTests {
    @Test("A session started and refreshed through the routes is in the injected store, and no file is made")
    func routesUseTheInjectedStore() async throws {
        let store = try InMemoryDatabase().open()
        let folder = scratchPath("unused-database")
        var environment = baseEnvironment(databasePath: folder.appendingPathComponent("never.sqlite").path)
        environment["SESSIONS_REFRESH_LIMIT"] = "5"
        try await withRouterService(environment, store: store) { client in
            let first = try await client.startSession()
            #expect(try await client.refresh(first.sessionID).status == 200)
            let kept = try #require(try await store.session(id: first.sessionID, now: Date()))
            #expect(kept.rounds.count == 2)
            #expect(kept.rounds[0].prompts.map(\.text) == first.prompts.map(\.text))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("never.sqlite").path))
    }
}
