import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Synchronization
import Testing

extension SystemTests {
    /// Two real `photo-prompts serve` processes on one PostgreSQL database, behind nginx round-robin: what a client
    /// sees must not depend on which instance answers.
    @Suite("Two instances on one PostgreSQL behind nginx", .tags(.slow))
    struct ScaleOutTests {
        /// Two instances and the balancer in front of them.
        struct Deployment: Sendable {
            let instances: [ChildProcess]
            let direct: [ServiceClient]
            let balancer: NginxFixture
            var client: ServiceClient { ServiceClient(port: balancer.port) }
        }

        static func withDeployment(stub: StubLLMFixture, _ body: (Deployment) async throws -> Void) async throws {
            try await withTestDatabase(.postgres) { database in
                if NginxFixture.executable == nil { try MissingDependency.skipOrFail(NginxFixture.notInstalled) }
                // The admin key, so each instance's /metrics says what it served.
                let environment = LifecycleTests.environment(stub: stub, databasePath: temporaryDatabasePath())
                    .merging(database.environment.merging(["DATABASE_POOL_SIZE": "8", "ADMIN_API_KEY": testAdminKey]) { $1 }) { $1 }
                var started: [(ChildProcess, ServiceClient)] = []
                for _ in 0..<2 { started.append(try await LifecycleTests.startService(environment)) }
                let balancer = try await NginxFixture.start(upstreamPorts: started.map { try $0.1.livePort })
                let deployment = Deployment(instances: started.map(\.0), direct: started.map(\.1), balancer: balancer)
                do {
                    try await body(deployment)
                } catch {
                    try? await deployment.stop()
                    throw error
                }
                try await deployment.stop()
            }
        }

        @Test("50 concurrent refreshes of one session through nginx count exactly 5, spread over both instances", .tags(.load))
        func refreshLimitAcrossInstances() async throws {
            try await withStubLLM(latencyMilliseconds: 50) { stub in
                try await Self.withDeployment(stub: stub) { deployment in
                    let session = try await deployment.client.startSession()
                    let replies = try await withThrowingTaskGroup(of: ServiceClient.Reply.self) { group in
                        for _ in 0..<50 { group.addTask { try await deployment.client.refresh(session.sessionID) } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    let statuses = replies.map(\.status)
                    #expect(statuses.count { $0 == 200 } == 5, "statuses: \(statuses)")
                    // The rest wait while a refresh runs (409) or meet the limit once 5 are delivered (429), never before.
                    #expect(statuses.count { $0 == 409 || $0 == 429 } == 45)
                    for refused in replies where refused.status == 429 {
                        #expect(refused.lookup["refreshes_used"].int == 5, "the limit copy only once 5 are delivered")
                    }
                    #expect(try await deployment.client.refresh(session.sessionID).status == 429)
                    for direct in deployment.direct {
                        let stored = try await direct.session(session.sessionID)
                        #expect(stored.lookup["refreshes_used"].int == 5, "each instance reads the same count")
                    }
                    let first = session.prompts.map(\.text)
                    let shown = try first + replies.filter { $0.status == 200 }.flatMap { try $0.decode(PromptsResponse.self).prompts.map(\.text) }
                    #expect(shown.count == 3 * 6, "the first answer and 5 refreshes, 3 prompts each")
                    #expect(Set(shown).count == shown.count, "no prompt shown twice across instances")
                    // Spread: each instance answered some of the 51 refreshes, as its own /metrics counts them.
                    var served: [Int] = []
                    for direct in deployment.direct { served.append(Self.refreshesServed(try await direct.metricsText())) }
                    #expect(served.allSatisfy { $0 > 0 }, "refreshes answered per instance: \(served)")
                    #expect(served.reduce(0, +) == 51, "refreshes answered per instance: \(served)")
                }
            }
        }

        /// The refresh requests an instance answered, whatever their status, summed from its `/metrics` text.
        static func refreshesServed(_ metrics: String) -> Int {
            metrics.split(separator: "\n")
                .filter { $0.hasPrefix("photoprompts_http_requests_total{") && $0.contains("refresh") }
                .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
                .reduce(0, +)
        }

        @Test("An idempotent retry that lands on the other instance gets the first answer")
        func idempotentRetryOnOtherInstance() async throws {
            try await withStubLLM { stub in
                try await Self.withDeployment(stub: stub) { deployment in
                    let key = [(name: "Idempotency-Key", value: "retry-\(UUID().uuidString)")]
                    let first = try await deployment.direct[0].post("/v1/prompts", json: samplePhotoRequest, headers: key)
                    #expect(first.status == 200)
                    let retry = try await deployment.direct[1].post("/v1/prompts", json: samplePhotoRequest, headers: key)
                    #expect(retry.status == 200)
                    #expect(retry.body == first.body, "the same session, the same prompts, byte for byte")
                    #expect(retry.headers["idempotent-replayed"] == "true")
                    #expect(await stub.calls == 1, "the retry made no backend call")
                }
            }
        }

        @Test("An answer the model wrote for one instance is a cache hit on the other: no second backend call")
        func cacheIsShared() async throws {
            try await withStubLLM { stub in
                try await Self.withDeployment(stub: stub) { deployment in
                    let first = try await deployment.direct[0].startSession()
                    #expect(first.source == .model)
                    let second = try await deployment.direct[1].startSession()
                    #expect(second.source == .cache)
                    #expect(second.sessionID != first.sessionID, "each request still gets its own session")
                    #expect(await stub.calls == 1)
                }
            }
        }

        @Test("20 simultaneous retries of one idempotent request, split between the instances, make one session and one backend call", .tags(.load))
        func simultaneousRetriesAcrossInstances() async throws {
            try await withStubLLM(latencyMilliseconds: 300) { stub in
                try await Self.withDeployment(stub: stub) { deployment in
                    let key = [(name: "Idempotency-Key", value: "tap-\(UUID().uuidString)")]
                    let replies = try await withThrowingTaskGroup(of: ServiceClient.Reply.self) { group in
                        for attempt in 0..<20 {
                            group.addTask { try await deployment.direct[attempt % 2].post("/v1/prompts", json: samplePhotoRequest, headers: key) }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(replies.allSatisfy { $0.status == 200 })
                    #expect(Set(replies.map(\.body)).count == 1, "every retry got the first answer, byte for byte")
                    #expect(replies.filter { $0.headers["idempotent-replayed"] == nil }.count == 1)
                    #expect(await stub.calls == 1)
                }
            }
        }

        @Test("Killing one instance under load through nginx loses no acknowledged session", .tags(.load))
        func killOneInstanceUnderLoad() async throws {
            try await withStubLLM(latencyMilliseconds: 20) { stub in
                try await Self.withDeployment(stub: stub) { deployment in
                    let acknowledged = Acknowledged()
                    let failures = FailureCount()
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for worker in 0..<8 {
                            group.addTask {
                                for round in 0..<40 {
                                    let body = #"{"photo": {"labels": ["scale \#(worker)-\#(round)"]}}"#
                                    guard let reply = try? await deployment.client.post("/v1/prompts", json: body), reply.status == 200,
                                        let session = try? reply.decode(PromptsResponse.self)
                                    else {
                                        failures.add()
                                        continue
                                    }
                                    acknowledged.record(session.sessionID, refreshesUsed: 0)
                                }
                            }
                        }
                        try await Task.sleep(for: .milliseconds(800))
                        kill(deployment.instances[0].processIdentifier, SIGKILL)
                        try await group.waitForAll()
                    }
                    let promised = acknowledged.all
                    #expect(promised.count > 100, "the load went on after the kill (\(promised.count) acknowledged)")
                    // Requests the dead instance had accepted fail (nginx does not resend a POST); none may be lost once answered.
                    #expect(failures.value < 40)
                    for sessionID in promised.keys {
                        let reply = try await deployment.client.session(sessionID)
                        #expect(reply.status == 200, "\(sessionID) was acknowledged, so the surviving instance must have it")
                    }
                }
            }
        }
    }
}

extension SystemTests.ScaleOutTests.Deployment {
    func stop() async throws {
        try await balancer.stop()
        for instance in instances where instance.isRunning {
            instance.terminate()
            _ = try await instance.waitForExit()
        }
    }
}

/// Requests that got no answer, counted from many tasks.
final class FailureCount: Sendable {
    private let count = Mutex(0)

    func add() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
