import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

@Suite("Coordinates are rounded before anyone sees them")
struct CoordinateRoundingTests {

    @Test("Coordinates are rounded to about 1 km before the model, the cache key or the database see them")
    func coordinatesRounded() async throws {
        let databasePath = temporaryDatabasePath()
        // A template that shows the model the coordinates: the shipped one does not, and a check through it
        // would pass whatever the service did with them.
        let prompts = try TemporaryPrompts()
        let user = "photo-journal/user.mustache"
        try prompts.write(user, "At {{photo.location.latitude}}, {{photo.location.longitude}}. " + (try prompts.read(user)))
        let stub = StubBehaviourBackend()
        try await withRouterService(operatorEnvironment(prompts: prompts, base: baseEnvironment(databasePath: databasePath)), backends: [stub]) {
            client in
            let body =
                #"{"photo": {"location": {"name": "Home", "latitude": 37.117491, "longitude": -8.537216}, "taken_at": "2026-07-01T12:00:00Z"}}"#
            let session = try await client.startSession(body)
            let stored = try await client.session(session.sessionID).lookup
            #expect(stored["photo", "location", "latitude"].double == 37.12)
            #expect(stored["photo", "location", "longitude"].double == -8.54)
            let sent = await stub.lastRequestText
            #expect(sent.contains("At 37.12, -8.54."), "the template rendered the rounded coordinates: \(sent)")
            #expect(!sent.contains("37.117"))
            #expect(!sent.contains("8.537"))
            // The main file and its write-ahead log: while the service runs, the writes are in the WAL.
            var written = ""
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: databasePath + suffix) {
                written += try String(contentsOf: URL(fileURLWithPath: databasePath + suffix), encoding: .isoLatin1)
            }
            #expect(written.contains("37.12"), "the rounded value was written where this test reads")
            #expect(!written.contains("37.117491") && !written.contains("37.1175"))
        }
    }
}
