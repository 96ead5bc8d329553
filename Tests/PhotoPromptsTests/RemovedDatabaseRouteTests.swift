import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

/// A SQLite file removed, or replaced, under the running service: nothing is acknowledged that the file does not
/// keep. Writes are 503 with `Retry-After` and `/readyz` is 503, until an operator restarts the service on a file.
@Suite("The SQLite file removed under a running service")
struct RemovedDatabaseRouteTests {
    /// Removes the database and its WAL and shared-memory files, as `rm data/*` would.
    static func remove(_ path: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    @Test(
        "Removed or replaced: a new session and a refresh are 503 store_unavailable, /readyz 503: nothing acknowledged is lost",
        arguments: [false, true]
    )
    func removedFileRefusesWrites(replaced: Bool) async throws {
        let path = temporaryDatabasePath()
        try await withRouterService(baseEnvironment(databasePath: path)) { client in
            let kept = try await client.startSession()
            let readyBefore = try await client.send("GET", "/readyz")
            #expect(readyBefore.status == 200)
            try Self.remove(path)
            // Replaced: an empty file where the database was, as a restore gone wrong would leave.
            if replaced { FileManager.default.createFile(atPath: path, contents: nil) }
            let refused = try await client.post("/v1/prompts", json: samplePhotoRequest)
            #expect(refused.status == 503, "\(String(decoding: refused.body, as: UTF8.self))")
            #expect(refused.errorCode == "store_unavailable")
            #expect(refused.headers["retry-after"] != nil)
            let refresh = try await client.refresh(kept.sessionID)
            #expect(refresh.status == 503, "a refresh is refused too")
            let ready = try await client.send("GET", "/readyz")
            #expect(ready.status == 503)
            #expect(ready.lookup["checks", "database"].string == "failing")
        }
    }
}
