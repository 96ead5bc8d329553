import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PostgresNIO
import PromptDomain
import PromptStores
import Testing

/// What instances share: the cache, idempotency claims, feedback and selections.
extension SystemTests.StoreContractTests {

    @Test("A cache entry written by one instance is read by another, until it expires", arguments: StoreKind.withTwin)
    func sharedCache(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let writer = try await database.open()
            let reader = try await database.open()
            let prompts = [
                ValidPrompt(text: "Who were you with when this was taken?", wordCount: 8, answeredBy: .init(provider: "stub", model: "m"))
            ]
            try await writer.cache(CacheEntry(key: "k1", prompts: prompts, expiresAt: Self.now.addingTimeInterval(60)), at: Self.now)
            #expect(try await reader.cacheEntry(forKey: "k1", now: Self.now)?.prompts == prompts)
            #expect(try await reader.cacheEntry(forKey: "k1", now: Self.now.addingTimeInterval(61)) == nil)
            #expect(try await reader.cacheEntry(forKey: "k2", now: Self.now) == nil)
            // A new session and the cache entry its answer made are written together.
            try await writer.createSession(
                Self.session(),
                historyUntil: nil,
                caching: CacheEntry(key: "k3", prompts: prompts, expiresAt: Self.now.addingTimeInterval(60))
            )
            #expect(try await reader.cacheEntry(forKey: "k3", now: Self.now)?.prompts == prompts)
            try await writer.close()
            try await reader.close()
        }
    }

    @Test(
        "Of 20 concurrent claims of one idempotency key through two instances one wins; the rest wait, then replay its answer",
        arguments: StoreKind.withTwin
    )
    func idempotencyKeyIsClaimedOnceAcrossInstances(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let instances = [try await database.open(claimLease: 30), try await database.open(claimLease: 30)]
            let claims = try await withThrowingTaskGroup(of: IdempotencyClaim.self) { group in
                for attempt in 0..<20 {
                    group.addTask {
                        try await instances[attempt % 2].claimIdempotencyKey(client: "ios", key: "key-1", fingerprint: "f", now: Self.now)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(claims.filter { $0 == .claimed }.count == 1)
            #expect(claims.filter { $0 == .running(fingerprint: "f") }.count == 19)
            #expect(try await instances[1].idempotentResponse(client: "ios", key: "key-1", now: Self.now) == nil, "a claim is not an answer")

            let answer = StoredResponse(status: 200, body: Array(#"{"n":1}"#.utf8), fingerprint: "f", userID: "u_1")
            let expiry = Self.now.addingTimeInterval(86_400)
            try await instances[0].keepIdempotentResponse(answer, client: "ios", key: "key-1", expiresAt: expiry)
            let late = StoredResponse(status: 200, body: Array(#"{"n":2}"#.utf8), fingerprint: "f", userID: "u_1")
            try await instances[1].keepIdempotentResponse(late, client: "ios", key: "key-1", expiresAt: expiry)
            let retry = try await instances[1].claimIdempotencyKey(client: "ios", key: "key-1", fingerprint: "f", now: Self.now)
            #expect(retry == .answered(answer), "the first answer kept wins, on either instance")
            #expect(try await instances[1].idempotentResponse(client: "ios", key: "key-1", now: Self.now) == answer)
            #expect(try await instances[0].idempotentResponse(client: "ios", key: "key-1", now: expiry) == nil)
            #expect(
                try await instances[0].claimIdempotencyKey(client: "web", key: "key-1", fingerprint: "g", now: Self.now) == .claimed,
                "keys are per client"
            )

            // A claim released after a server error, or left by a process that died, can be claimed again.
            #expect(
                try await instances[0].claimIdempotencyKey(client: "ios", key: "key-2", fingerprint: "f", now: Self.now) == .claimed
            )
            try await instances[0].releaseIdempotencyKey(client: "ios", key: "key-2")
            #expect(
                try await instances[1].claimIdempotencyKey(client: "ios", key: "key-2", fingerprint: "f", now: Self.now) == .claimed
            )
            let lapsed = Self.now.addingTimeInterval(31)
            #expect(
                try await instances[0].claimIdempotencyKey(client: "ios", key: "key-2", fingerprint: "f", now: lapsed) == .claimed
            )
            for store in instances { try await store.close() }
        }
    }

    @Test("20 identical feedback taps through two instances are recorded once", arguments: StoreKind.withTwin)
    func feedbackIsRecordedOnce(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let instances = [try await database.open(), try await database.open()]
            let session = Self.session()
            try await instances[0].createSession(session)
            let promptID = session.rounds[0].prompts[0].id
            let outcomes = try await withThrowingTaskGroup(of: FeedbackOutcome.self) { group in
                for attempt in 0..<20 {
                    group.addTask {
                        try await instances[attempt % 2].recordFeedback(
                            Feedback(sessionID: session.id, promptID: promptID, action: .selected, at: Self.now, caller: Self.owner)
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let recorded = outcomes.compactMap { outcome -> RecordedFeedback? in
                if case .recorded(let feedback) = outcome { return feedback }
                return nil
            }
            #expect(recorded.count == 20)
            #expect(recorded.filter(\.isNew).count == 1)
            #expect(recorded.filter(\.isFirstSelection).count == 1)
            #expect(recorded.allSatisfy { $0.template.version == "v-abc" })

            let unknownPrompt = try await instances[1].recordFeedback(
                Feedback(sessionID: session.id, promptID: "never-shown", action: .selected, at: Self.now, caller: Self.owner)
            )
            guard case .promptNotFound = unknownPrompt else { throw StoreTestFailure("expected promptNotFound, got \(unknownPrompt)") }
            let stranger = try await instances[1].recordFeedback(
                Feedback(
                    sessionID: session.id,
                    promptID: promptID,
                    action: .selected,
                    at: Self.now,
                    caller: Caller(client: "web", userID: nil)
                )
            )
            guard case .sessionNotFound = stranger else { throw StoreTestFailure("expected sessionNotFound, got \(stranger)") }
            #expect(try await instances[0].exportUser(client: "ios", userID: "u_1").feedback.count == 1)
            for store in instances { try await store.close() }
        }
    }

    @Test("Selections of different prompts of one session through two instances: exactly one is the first", arguments: StoreKind.withTwin)
    func firstSelectionIsCountedOnce(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let instances = [try await database.open(), try await database.open()]
            for attempt in 0..<10 {
                let session = Self.session(id: "s-first-\(attempt)")
                try await instances[0].createSession(session)
                let outcomes = try await withThrowingTaskGroup(of: FeedbackOutcome.self) { group in
                    for (index, prompt) in session.rounds[0].prompts.enumerated() {
                        group.addTask {
                            try await instances[index % 2].recordFeedback(
                                Feedback(sessionID: session.id, promptID: prompt.id, action: .selected, at: Self.now, caller: Self.owner)
                            )
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let first = outcomes.filter { outcome in
                    if case .recorded(let feedback) = outcome { return feedback.isNew && feedback.isFirstSelection }
                    return false
                }
                #expect(first.count == 1, "session \(attempt): \(first.count) selections counted as the first")
            }
            for store in instances { try await store.close() }
        }
    }
}
