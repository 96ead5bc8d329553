import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

extension SystemTests {
    @Suite("The user's data: export everything, delete everything, and coordinates rounded before anyone sees them")
    struct UserDataTests {

        @Test("Coordinates are rounded to about 1 km before the model, the cache key or the database see them")
        func coordinatesRounded() async throws {
            let databasePath = temporaryDatabasePath()
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub, databasePath: databasePath)) { client in
                    let body =
                        #"{"photo": {"location": {"name": "Home", "latitude": 37.117491, "longitude": -8.537216}, "taken_at": "2026-07-01T12:00:00Z"}}"#
                    let session = try await client.startSession(body)
                    let stored = try await client.session(session.sessionID).lookup
                    #expect(stored["photo", "location", "latitude"].double == 37.12)
                    #expect(stored["photo", "location", "longitude"].double == -8.54)
                    let sent = await stub.state.lastRequestBody
                    #expect(!sent.contains("37.117"))
                    #expect(!sent.contains("8.537"))
                    let file = try String(contentsOf: URL(fileURLWithPath: databasePath), encoding: .isoLatin1)
                    #expect(!file.contains("37.117491"))
                }
            }
        }
    }
}
