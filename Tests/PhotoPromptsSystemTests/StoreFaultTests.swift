import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

extension SystemTests {
    @Suite("A database that cannot write answers 503 with Retry-After, never 500, and within the deadline", .serialized)
    struct StoreFaultTests {
        @Test(
            "Another process holding the SQLite file's exclusive lock: 503 store_unavailable with Retry-After, then 200 once it lets go",
            .tags(.slow)
        )
        func lockedByAnotherProcess() async throws {
            let databasePath = temporaryDatabasePath()
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub, databasePath: databasePath)) { client in
                    // The service created and migrated the file; now another process takes the write lock and keeps it.
                    let holder = try ChildProcess(
                        URL(fileURLWithPath: "/usr/bin/env"),
                        arguments: ["python3", "-c", Self.holdExclusiveLock, databasePath, "3"]
                    )
                    _ = try await holder.firstLine { $0 == "locked" }
                    let start = ContinuousClock.now
                    let reply = try await client.post("/v1/prompts", json: samplePhotoRequest)
                    let elapsed = ContinuousClock.now - start
                    #expect(reply.status == 503)
                    #expect(reply.errorCode == "store_unavailable")
                    #expect(reply.headers["retry-after"] == "2")
                    #expect(elapsed < .seconds(2), "LLM_TIMEOUT is 1 s; answered in \(elapsed)")
                    _ = try await holder.waitForExit()
                    #expect(try await client.post("/v1/prompts", json: samplePhotoRequest).status == 200)
                }
            }
        }

        /// Opens the SQLite file named by argv[1], takes its exclusive lock, says "locked", and holds it argv[2] seconds.
        static let holdExclusiveLock = """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=5)
            connection.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            time.sleep(float(sys.argv[2]))
            connection.execute("ROLLBACK")
            """
    }
}
