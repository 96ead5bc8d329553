import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import StubLLM
import Testing

extension SystemTests {
    @Suite("The refresh limit holds exactly, under concurrency and across restarts")
    struct RefreshLimitTests {
        /// Sends `count` refreshes of one session at the same moment and returns their statuses.
        func simultaneousRefreshes(_ count: Int, of sessionID: String, client: ServiceClient) async throws -> [Int] {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<count {
                    group.addTask { try await client.refresh(sessionID).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }

        @Test("50 simultaneous refreshes of a fresh session give exactly 5 counted successes", .tags(.load), arguments: [0, 200])
        func fiftyAtOnce(latencyMilliseconds: Int) async throws {
            try await withStubLLM(latencyMilliseconds: latencyMilliseconds) { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let session = try await client.startSession()
                    let statuses = try await simultaneousRefreshes(50, of: session.sessionID, client: client)
                    #expect(statuses.count { $0 == 200 } == 5)
                    // Refused while the 5 still ran: told to wait (409); after they were delivered: the limit (429).
                    #expect(statuses.count { $0 == 409 || $0 == 429 } == 45)
                    let after = try await client.refresh(session.sessionID)
                    #expect(after.status == 429)
                    #expect(try after.decode(RefusedRefresh.self).refreshesUsed == 5)
                    let stored = try await client.session(session.sessionID).decode(SessionResponse.self)
                    #expect(stored.refreshesUsed == 5)
                    #expect(stored.rounds.filter(\.counted).count == 5)
                    #expect(stored.rounds.allSatisfy { $0.source != .fallback })
                    let keys = stored.rounds.flatMap(\.prompts).map { PromptNormalizer.repeatKey($0.text) }
                    #expect(Set(keys).count == keys.count, "a prompt was shown twice")
                    // Refused refreshes never reach the model: one call for the start, at most one per counted refresh.
                    #expect(await stub.calls <= 6)
                }
            }
        }

        /// The counts a refused refresh reports beside its error.
        struct RefusedRefresh: Decodable {
            var refreshesUsed: Int
        }

        @Test("Refreshes that fall back under concurrency give their slots back")
        func fallbacksReleaseSlots() async throws {
            try await withStubLLM { stub in
                // The breaker stays closed: five failures would open it, and then the refreshes after the model
                // recovers would fall back too, giving their slots back for another reason.
                try await withService(testEnvironment(stub: stub).merging(["BREAKER_FAILURES": "1000"]) { $1 }) { client in
                    let session = try await client.startSession()
                    #expect(try await client.refresh(session.sessionID).status == 200)  // served from the surplus
                    await stub.set(.serverError)
                    let failing = try await simultaneousRefreshes(20, of: session.sessionID, client: client)
                    #expect(failing.allSatisfy { $0 == 200 || $0 == 409 || $0 == 429 })
                    let afterFailures = try await client.session(session.sessionID).decode(SessionResponse.self)
                    #expect(afterFailures.refreshesUsed == 1)
                    await stub.set(.normal)
                    let statuses = try await simultaneousRefreshes(20, of: session.sessionID, client: client)
                    #expect(statuses.count { $0 == 200 } == 4)
                    let afterRecovery = try await client.session(session.sessionID).decode(SessionResponse.self)
                    #expect(afterRecovery.refreshesUsed == 5)
                    #expect(afterRecovery.rounds.filter(\.counted).allSatisfy { $0.source == .model })
                }
            }
        }

        @Test("Sessions, counts and the cache survive a restart on the same SQLite file")
        func restart() async throws {
            try await withStubLLM { stub in
                let environment = testEnvironment(stub: stub)
                let session = try await withService(environment) { client in
                    let session = try await client.startSession()
                    for _ in 1...3 { _ = try await client.refresh(session.sessionID) }
                    return session
                }
                let callsBeforeRestart = await stub.calls
                try await withService(environment) { client in
                    let stored = try await client.session(session.sessionID).decode(SessionResponse.self)
                    #expect(stored.refreshesUsed == 3)
                    #expect(stored.rounds.count == 4)
                    #expect(stored.rounds[0].prompts.map(\.text) == session.prompts.map(\.text))
                    let fromCache = try await client.asUser("u_other").startSampleSession()
                    #expect(fromCache.source == .cache)
                    #expect(await stub.calls == callsBeforeRestart)
                    let statuses = try await simultaneousRefreshes(10, of: session.sessionID, client: client)
                    #expect(statuses.count { $0 == 200 } == 2)
                }
                try await withService(environment) { client in
                    let refused = try await client.refresh(session.sessionID)
                    #expect(refused.status == 429)
                    #expect(try refused.json["refreshes_used"] as? Int == 5)
                }
            }
        }

        @Test("A limit of zero refuses the first refresh")
        func configurableLimit() async throws {
            var environment = testEnvironment(stub: nil)
            environment["SESSIONS_REFRESH_LIMIT"] = "0"
            try await withService(environment) { client in
                let session = try await client.startSession()
                #expect(session.refreshesRemaining == 0)
                #expect(try await client.refresh(session.sessionID).status == 429)
            }
        }
    }
}
