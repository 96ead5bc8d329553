import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptStores
import Testing

extension SystemTests {
    @Suite("What a crashed process leaves in the store never hangs the next request", .serialized, .tags(.slow))
    struct CrashLeftoverTests {
        /// The budget of the service that dies: its claims last this plus ``PromptStoreDefaults/claimMargin`` from
        /// when it made them, whoever reads them later.
        static let timeout = 8.0
        /// The budget of the service started after it: each of its requests waits for a claim at most this long, so
        /// both requests' deadlines come before the dead claims' lease ends (10 s after it was made) unless the restart
        /// takes over 6.7 s, which the test then names.
        static let retryTimeout = 1.0

        @Test(
            "After kill -9 mid-refresh, a retry with the same Idempotency-Key and a plain refresh are answered within LLM_TIMEOUT + 1 s, then take the claims over once their lease ends",
            arguments: StoreKind.underTest
        )
        func claimsLeftByACrash(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                try await withStubLLM { stub in
                    let environment = LifecycleTests.environment(stub: stub, databasePath: temporaryDatabasePath())
                        .merging(database.environment) { $1 }
                        .merging(["LLM_TIMEOUT": "\(Self.timeout)"]) { $1 }
                    let (first, client) = try await LifecycleTests.startService(environment)
                    let session = try await client.startSession()
                    // The first refresh is served from the first answer's surplus; the next one asks the model.
                    #expect(try await client.refresh(session.sessionID).status == 200)
                    // The model hangs, so the refresh holds its slot, its turn and its key's claim when the process dies.
                    await stub.set(.hang)
                    let key = [(name: "Idempotency-Key", value: "crash-retry-1")]
                    let refresh = "/v1/sessions/\(session.sessionID)/refresh"
                    let inFlight = Task { try? await client.send("POST", refresh, headers: key) }
                    try await waitUntil { await stub.calls == 2 }
                    let claimedAt = ContinuousClock.now
                    kill(first.processIdentifier, SIGKILL)
                    _ = try await first.waitForExit()
                    _ = await inFlight.value
                    await stub.set(.normal)

                    let (second, again) = try await LifecycleTests.startService(environment.merging(["LLM_TIMEOUT": "\(Self.retryTimeout)"]) { $1 })
                    let bound = Duration.seconds(Self.retryTimeout + 1)
                    let leaseEnd = claimedAt + .seconds(Self.timeout + PromptStoreDefaults.claimMargin)
                    var served = 1
                    // The retry with the key waits for the dead process's claim until its own deadline, which comes before
                    // the claim's lease ends (the dead service's 5 s budget plus the 2 s margin, against the new one's
                    // 1 s): the same 409 every time.
                    let retryStart = ContinuousClock.now
                    #expect(
                        retryStart + .seconds(Self.retryTimeout) < leaseEnd - .milliseconds(300),
                        "the restart took \(retryStart - claimedAt), so the claim's lease ends within the retry's deadline"
                    )
                    let retry = try await again.send("POST", refresh, headers: key)
                    #expect(ContinuousClock.now - retryStart < bound)
                    #expect(retry.status == 409, "\(String(decoding: retry.body, as: UTF8.self))")
                    #expect(retry.errorCode == "idempotency_key_in_use")
                    #expect(retry.headers["retry-after"] == "1")
                    // A plain refresh waits for the session's turn until its own deadline, which also comes before the
                    // turn's lease ends: refused as in progress, in time.
                    let start = ContinuousClock.now
                    #expect(
                        start + .seconds(Self.retryTimeout) < leaseEnd - .milliseconds(300),
                        "the restart took \(retryStart - claimedAt), so the turn's lease ends within the refresh's deadline"
                    )
                    let plain = try await again.send("POST", refresh)
                    let elapsed = ContinuousClock.now - start
                    #expect(elapsed < bound, "answered in \(elapsed)")
                    #expect(plain.status == 409, "\(String(decoding: plain.body, as: UTF8.self))")
                    #expect(plain.errorCode == "refresh_in_progress")
                    #expect(plain.headers["retry-after"] == "1")

                    // Once the lease is over, the claims are taken over at once: the model is asked, nothing waits.
                    try await Task.sleep(until: leaseEnd + .milliseconds(200))
                    for headers in [key, []] {
                        let start = ContinuousClock.now
                        let reply = try await again.send("POST", refresh, headers: headers)
                        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                        #expect(reply.lookup["source"].string == "model")
                        #expect(ContinuousClock.now - start < .seconds(1))
                        if reply.headers["idempotent-replayed"] == nil { served += 1 }
                    }
                    let stored = try await again.session(session.sessionID)
                    #expect(stored.lookup["refreshes_used"].int == served)
                    second.terminate()
                    _ = try await second.waitForExit()
                }
            }
        }

        @Test("Two refreshes of one session at once: the second waits its turn, and both are answered within LLM_TIMEOUT + 1 s")
        func waitingForATurnKeepsTheDeadline() async throws {
            try await withStubLLM { stub in
                var environment = testEnvironment(stub: stub)
                environment["LLM_TIMEOUT"] = "1"
                try await withService(environment) { client in
                    let session = try await client.startSession()
                    // Served from the first answer's surplus; the two below ask the model.
                    #expect(try await client.refresh(session.sessionID).status == 200)
                    await stub.set(.hang)
                    let start = ContinuousClock.now
                    let replies = try await withThrowingTaskGroup(of: ServiceClient.Reply.self) { group in
                        for _ in 0..<2 { group.addTask { try await client.refresh(session.sessionID) } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(ContinuousClock.now - start < .seconds(2))
                    for reply in replies {
                        #expect(reply.status == 200 || reply.status == 409)
                        if reply.status == 200 { #expect(reply.lookup["fallback_reason"].string == "timeout") }
                    }
                }
            }
        }
    }
}
