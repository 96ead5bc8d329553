import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PostgresNIO
import PromptDomain
import PromptStores
import Testing

extension SystemTests {
    /// One suite, two stores: every rule of ``PromptStore`` is checked on SQLite and on PostgreSQL alike. Where a rule
    /// is about several instances, the test opens the same database twice, as two instances would.
    @Suite("The store's rules, on SQLite and PostgreSQL")
    struct StoreContractTests {
        static let now = Date(timeIntervalSince1970: 1_780_000_000)
        static let owner = Caller(client: "ios", userID: "u_1")

        @Test("A session and its first round read back as written, and stop answering when expired", arguments: StoreKind.underTest)
        func sessionRoundTrip(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                let session = Self.session(surplus: [ValidPrompt(text: "What did the light feel like here?", wordCount: 7)])
                try await store.createSession(session)

                let read = try #require(try await store.session(id: session.id, now: Self.now))
                #expect(read.owner == "ios" && read.userID == "u_1" && read.locale == "en-GB")
                #expect(read.photo == session.photo)
                #expect(read.template == session.template)
                #expect(read.surplus.map(\.text) == ["What did the light feel like here?"])
                #expect(read.rounds.count == 1)
                #expect(read.rounds[0].prompts == session.firstRound.prompts)
                #expect(read.rounds[0].answeredBy == BackendIdentity(provider: "stub", model: "stub-1"))
                #expect(read.rounds[0].templateVersion == "v-abc")
                #expect(try await store.session(id: session.id, now: session.expiresAt) == nil)
                #expect(try await store.session(id: "missing", now: Self.now) == nil)
                try await store.close()
            }
        }

        @Test("Every field of the photo and the surplus reads back as written, whatever characters it holds", arguments: StoreKind.underTest)
        func everyFieldReadsBack(kind: StoreKind) async throws {
            // Both stores keep these as JSON text: every stored property is set, with text that needs escaping, and the
            // check below fails when a property is added but not set here.
            let awkward = "Quote \" back\\slash\ttab\nline \u{1} bell\u{7} café 海辺 🎉 </photo> \u{2028}"
            let photo = PhotoMetadata.everyField(text: awkward, peopleCount: 0)
            #expect(unsetProperties(of: photo).isEmpty, "set every property: \(unsetProperties(of: photo))")
            var surplus = [
                ValidPrompt(text: awkward, wordCount: 9, answeredBy: BackendIdentity(provider: "open\"ai", model: "m\\1")),
                ValidPrompt(text: "What did the light feel like here?", wordCount: 7),
            ]
            // Set so the check below sees every property; not stored (it is worked out again from the text) and not
            // part of equality.
            surplus[0].signature = PromptSignature(awkward, language: .english)
            #expect(unsetProperties(of: surplus[0]).isEmpty, "set every property: \(unsetProperties(of: surplus[0]))")
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                var session = Self.session(surplus: surplus)
                session.photo = photo
                try await store.createSession(session)
                let read = try #require(try await store.session(id: session.id, now: Self.now))
                #expect(read.photo == photo)
                #expect(read.surplus == surplus)
                #expect(read.rounds[0].answeredBy == session.firstRound.answeredBy)
                try await store.close()
            }
        }

        @Test("Sessions and rounds survive closing the store and opening it again", arguments: StoreKind.underTest)
        func survivesRestart(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let session = Self.session()
                let first = try await database.open()
                try await first.createSession(session)
                guard case .reserved = try await first.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: Self.owner) else {
                    Issue.record("the first refresh was not reserved")
                    return
                }
                _ = try await first.commitRefresh(sessionID: session.id, now: Self.now) { _ in Self.draft(round: 1) }
                try await first.close()

                let reopened = try await database.open()
                let read = try #require(try await reopened.session(id: session.id, now: Self.now))
                #expect(read.refreshesUsed == 1)
                #expect(read.rounds.map(\.round) == [0, 1])
                #expect(try await database.appliedMigrations() == ["v1", "v2", "v3", "v4", "v5", "v6", "v7"])
                try await reopened.close()
            }
        }

        @Test(
            "50 concurrent refreshes through two store instances reserve exactly 5, and no prompt is shown twice",
            arguments: StoreKind.underTest
        )
        func refreshLimitIsExactAcrossInstances(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let instances = [try await database.open(), try await database.open()]
                let session = Self.session()
                try await instances[0].createSession(session)

                // Every refresh offers the same pool of prompts and takes the first three not yet shown, so a commit
                // that missed a concurrent one's prompts would repeat them.
                let pool = (0..<40).map { Self.prompt(id: "pool-\($0)", text: "Which small detail from moment number \($0) stays with you now?") }
                let outcomes = try await withThrowingTaskGroup(of: RefreshReservation.self) { group in
                    for attempt in 0..<50 {
                        let store = instances[attempt % 2]
                        group.addTask {
                            let reservation = try await store.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: Self.owner)
                            if case .reserved = reservation {
                                _ = try await store.commitRefresh(sessionID: session.id, now: Self.now) { shown in
                                    RoundDraft(
                                        source: .model,
                                        prompts: Array(pool.filter { !shown.contains(PromptNormalizer.repeatKey($0.text)) }.prefix(3))
                                    )
                                }
                            }
                            return reservation
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let reserved = outcomes.compactMap { outcome -> Int? in
                    if case .reserved(let ordinal) = outcome { return ordinal }
                    return nil
                }
                #expect(reserved.count == 5)
                // The rest are refused: the limit only once 5 are delivered; while one still runs, told to wait.
                for outcome in outcomes {
                    switch outcome {
                    case .reserved: break
                    case .limitReached(let used): #expect(used == 5)
                    case .pending(let used, _): #expect(used < 5)
                    case .notFound: Issue.record("the session vanished")
                    }
                }

                let read = try #require(try await instances[1].session(id: session.id, now: Self.now))
                #expect(read.refreshesUsed == 5)
                #expect(read.rounds.count == 6)
                let shown = read.rounds.flatMap(\.prompts).map(\.text)
                #expect(Set(shown).count == shown.count, "a prompt was shown twice")
                for store in instances { try await store.close() }
            }
        }

        @Test("A fallback round gives its slot back; a released reservation too", arguments: StoreKind.underTest)
        func fallbackAndReleaseFreeTheSlot(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                let session = Self.session()
                try await store.createSession(session)
                #expect(try await store.reserveRefresh(sessionID: session.id, limit: 1, now: Self.now, caller: Self.owner) == .reserved(ordinal: 1))
                #expect(
                    try await store.reserveRefresh(sessionID: session.id, limit: 1, now: Self.now, caller: Self.owner)
                        == .pending(refreshesUsed: 0, retryAfter: PromptStoreDefaults.claimLease)
                )
                let committed = try await store.commitRefresh(sessionID: session.id, now: Self.now) { _ in
                    RoundDraft(
                        source: .fallback,
                        fallbackReason: .timeout,
                        prompts: [Self.prompt(id: "f1", text: "What made you stop and take this photo today?")]
                    )
                }
                #expect(committed.refreshesUsed == 0)
                #expect(try await store.reserveRefresh(sessionID: session.id, limit: 1, now: Self.now, caller: Self.owner) == .reserved(ordinal: 1))
                try await store.releaseRefresh(sessionID: session.id)
                #expect(try await store.reserveRefresh(sessionID: session.id, limit: 1, now: Self.now, caller: Self.owner) == .reserved(ordinal: 1))
                let read = try #require(try await store.session(id: session.id, now: Self.now))
                #expect(read.rounds.map(\.counted) == [false, false])
                #expect(read.rounds[1].fallbackReason == .timeout)
                try await store.close()
            }
        }

        @Test(
            "A refresh overlapping the running 5th is told to wait, never the limit; once the 5th counts the next gets the limit, once it fails the next is the 5th",
            arguments: StoreKind.underTest
        )
        func overlapAtFourUsed(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open(claimLease: 30)
                let session = Self.session()
                try await store.createSession(session)
                for ordinal in 1...4 {
                    #expect(
                        try await store.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: Self.owner)
                            == .reserved(ordinal: ordinal)
                    )
                    _ = try await store.commitRefresh(sessionID: session.id, now: Self.now) { _ in
                        RoundDraft(
                            source: .model,
                            prompts: [Self.prompt(id: "r\(ordinal)", text: "What did refresh number \(ordinal) make you remember today?")]
                        )
                    }
                }
                #expect(try await store.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: Self.owner) == .reserved(ordinal: 5))
                // A double tap while the 5th runs: 4 delivered, the 5th due within its lease.
                let later = Self.now.addingTimeInterval(10)
                #expect(
                    try await store.reserveRefresh(sessionID: session.id, limit: 5, now: later, caller: Self.owner)
                        == .pending(refreshesUsed: 4, retryAfter: 20)
                )
                // The 5th fails and gives its slot back: the next is served as the 5th.
                try await store.releaseRefresh(sessionID: session.id)
                #expect(try await store.reserveRefresh(sessionID: session.id, limit: 5, now: later, caller: Self.owner) == .reserved(ordinal: 5))
                _ = try await store.commitRefresh(sessionID: session.id, now: later) { _ in
                    RoundDraft(source: .model, prompts: [Self.prompt(id: "r5", text: "What did the fifth refresh make you remember today?")])
                }
                // Now 5 are delivered: the limit.
                #expect(
                    try await store.reserveRefresh(sessionID: session.id, limit: 5, now: later, caller: Self.owner) == .limitReached(refreshesUsed: 5)
                )
                try await store.close()
            }
        }

        @Test("Two taps at 0 used are both served, never a 6th; a slot whose lease expired is free at once", arguments: StoreKind.underTest)
        func overlapAtZeroAndExpiredSlot(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open(claimLease: 30)
                let session = Self.session()
                try await store.createSession(session)
                async let first = store.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: Self.owner)
                async let second = store.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: Self.owner)
                #expect(Set([try await first, try await second].map { "\($0)" }) == ["reserved(ordinal: 1)", "reserved(ordinal: 2)"])
                // Both holders die; at the lease's end their slots are free at once, counted from none.
                let expired = Self.now.addingTimeInterval(30.5)
                #expect(try await store.reserveRefresh(sessionID: session.id, limit: 5, now: expired, caller: Self.owner) == .reserved(ordinal: 1))
                try await store.close()
            }
        }

        @Test("A reservation held by a process that died lapses after the lease, and its slot comes back", arguments: StoreKind.underTest)
        func abandonedReservationLapses(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let crashed = try await database.open(claimLease: 30)
                let session = Self.session()
                try await crashed.createSession(session)
                for ordinal in 1...2 {
                    #expect(
                        try await crashed.reserveRefresh(sessionID: session.id, limit: 2, now: Self.now, caller: Self.owner)
                            == .reserved(ordinal: ordinal)
                    )
                }
                // The process holding both slots is gone; another instance sees them held until the lease runs out.
                let survivor = try await database.open(claimLease: 30)
                let during = Self.now.addingTimeInterval(29)
                // Not the limit: none is delivered. Told to wait for the rest of the lease.
                let waiting = try await survivor.reserveRefresh(sessionID: session.id, limit: 2, now: during, caller: Self.owner)
                guard case .pending(refreshesUsed: 0, let retryAfter) = waiting else {
                    Issue.record("expected a pending refusal, got \(waiting)")
                    return
                }
                #expect(abs(retryAfter - 1) < 0.01)
                let after = Self.now.addingTimeInterval(31)
                #expect(try await survivor.reserveRefresh(sessionID: session.id, limit: 2, now: after, caller: Self.owner) == .reserved(ordinal: 1))
                try await crashed.close()
                try await survivor.close()
            }
        }

        @Test("Refresh turns: one holder at a time across instances, handed on when ended, lapsing with the lease", arguments: StoreKind.underTest)
        func refreshTurns(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let first = try await database.open(claimLease: 30)
                let second = try await database.open(claimLease: 30)
                let session = Self.session()
                try await first.createSession(session)
                #expect(try await first.takeRefreshTurn(sessionID: session.id, holder: "a", now: Self.now))
                #expect(try await second.takeRefreshTurn(sessionID: session.id, holder: "b", now: Self.now) == false)
                try await first.endRefreshTurn(sessionID: session.id, holder: "a")
                #expect(try await second.takeRefreshTurn(sessionID: session.id, holder: "b", now: Self.now))
                try await first.endRefreshTurn(sessionID: session.id, holder: "a")
                #expect(try await first.takeRefreshTurn(sessionID: session.id, holder: "c", now: Self.now) == false, "only the holder ends a turn")
                #expect(
                    try await first.takeRefreshTurn(sessionID: session.id, holder: "c", now: Self.now.addingTimeInterval(31)),
                    "a dead holder's turn lapses"
                )
                #expect(try await first.takeRefreshTurn(sessionID: "gone", holder: "d", now: Self.now), "nothing to wait for")
                try await first.close()
                try await second.close()
            }
        }

        @Test("Another client or user cannot refresh a session, and spends none of its slots", arguments: StoreKind.underTest)
        func ownership(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                let session = Self.session()
                try await store.createSession(session)
                for stranger in [Caller(client: "web", userID: "u_1"), Caller(client: "ios", userID: "u_2"), Caller(client: "ios", userID: nil)] {
                    #expect(try await store.reserveRefresh(sessionID: session.id, limit: 1, now: Self.now, caller: stranger) == .notFound)
                }
                #expect(try await store.reserveRefresh(sessionID: session.id, limit: 1, now: Self.now, caller: Self.owner) == .reserved(ordinal: 1))
                try await store.close()
            }
        }

        @Test("A cache entry written by one instance is read by another, until it expires", arguments: StoreKind.underTest)
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
                    caching: CacheEntry(key: "k3", prompts: prompts, expiresAt: Self.now.addingTimeInterval(60))
                )
                #expect(try await reader.cacheEntry(forKey: "k3", now: Self.now)?.prompts == prompts)
                try await writer.close()
                try await reader.close()
            }
        }

        @Test(
            "Of 20 concurrent claims of one idempotency key through two instances one wins; the rest wait, then replay its answer",
            arguments: StoreKind.underTest
        )
        func idempotencyKeyIsClaimedOnceAcrossInstances(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let instances = [try await database.open(claimLease: 30), try await database.open(claimLease: 30)]
                let claims = try await withThrowingTaskGroup(of: IdempotencyClaim.self) { group in
                    for attempt in 0..<20 {
                        group.addTask {
                            try await instances[attempt % 2].claimIdempotencyKey(
                                client: "ios",
                                key: "key-1",
                                fingerprint: "f",
                                userID: "u_1",
                                now: Self.now
                            )
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
                let retry = try await instances[1].claimIdempotencyKey(client: "ios", key: "key-1", fingerprint: "f", userID: "u_1", now: Self.now)
                #expect(retry == .answered(answer), "the first answer kept wins, on either instance")
                #expect(try await instances[1].idempotentResponse(client: "ios", key: "key-1", now: Self.now) == answer)
                #expect(try await instances[0].idempotentResponse(client: "ios", key: "key-1", now: expiry) == nil)
                #expect(
                    try await instances[0].claimIdempotencyKey(client: "web", key: "key-1", fingerprint: "g", userID: nil, now: Self.now) == .claimed,
                    "keys are per client"
                )

                // A claim released after a server error, or left by a process that died, can be claimed again.
                #expect(
                    try await instances[0].claimIdempotencyKey(client: "ios", key: "key-2", fingerprint: "f", userID: nil, now: Self.now) == .claimed
                )
                try await instances[0].releaseIdempotencyKey(client: "ios", key: "key-2")
                #expect(
                    try await instances[1].claimIdempotencyKey(client: "ios", key: "key-2", fingerprint: "f", userID: nil, now: Self.now) == .claimed
                )
                let lapsed = Self.now.addingTimeInterval(31)
                #expect(
                    try await instances[0].claimIdempotencyKey(client: "ios", key: "key-2", fingerprint: "f", userID: nil, now: lapsed) == .claimed
                )
                for store in instances { try await store.close() }
            }
        }

        @Test("20 identical feedback taps through two instances are recorded once", arguments: StoreKind.underTest)
        func feedbackIsRecordedOnce(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let instances = [try await database.open(), try await database.open()]
                let session = Self.session()
                try await instances[0].createSession(session)
                let promptID = session.firstRound.prompts[0].id
                let outcomes = try await withThrowingTaskGroup(of: FeedbackOutcome.self) { group in
                    for attempt in 0..<20 {
                        group.addTask {
                            try await instances[attempt % 2].recordFeedback(
                                NewFeedback(sessionID: session.id, promptID: promptID, action: .selected, at: Self.now, caller: Self.owner)
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
                    NewFeedback(sessionID: session.id, promptID: "never-shown", action: .selected, at: Self.now, caller: Self.owner)
                )
                guard case .promptNotFound = unknownPrompt else { throw StoreTestFailure("expected promptNotFound, got \(unknownPrompt)") }
                let stranger = try await instances[1].recordFeedback(
                    NewFeedback(
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

        @Test("Selections of different prompts of one session through two instances: exactly one is the first", arguments: StoreKind.underTest)
        func firstSelectionIsCountedOnce(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let instances = [try await database.open(), try await database.open()]
                for attempt in 0..<10 {
                    let session = Self.session(id: "s-first-\(attempt)")
                    try await instances[0].createSession(session)
                    let outcomes = try await withThrowingTaskGroup(of: FeedbackOutcome.self) { group in
                        for (index, prompt) in session.firstRound.prompts.enumerated() {
                            group.addTask {
                                try await instances[index % 2].recordFeedback(
                                    NewFeedback(sessionID: session.id, promptID: prompt.id, action: .selected, at: Self.now, caller: Self.owner)
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

        @Test("Stats counted by two instances add up in the same hourly rows", arguments: StoreKind.underTest)
        func statsAddUp(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let instances = [try await database.open(), try await database.open()]
                let template = TemplateIdentity(name: "photo-journal", version: "v-abc")
                let bucket = StatsCounter.bucket(for: Self.now)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for attempt in 0..<10 {
                        group.addTask {
                            try await instances[attempt % 2].addStats([
                                StatsCounter(bucket: bucket, template: template, name: "requests", value: 2),
                                StatsCounter(bucket: bucket, template: template, name: "sessions", value: 1),
                            ])
                        }
                    }
                    try await group.waitForAll()
                }
                let counters = try await instances[0].stats(template: "photo-journal", from: Self.now, to: Self.now.addingTimeInterval(3600))
                #expect(Dictionary(uniqueKeysWithValues: counters.map { ($0.name, $0.value) }) == ["requests": 20, "sessions": 10])
                #expect(counters.allSatisfy { $0.template == template && $0.bucket == bucket })
                #expect(try await instances[0].stats(template: "other", from: Self.now, to: Self.now.addingTimeInterval(3600)).isEmpty)
                for store in instances { try await store.close() }
            }
        }

        @Test("Export and delete cover exactly one user's sessions, feedback and kept answers", arguments: StoreKind.underTest)
        func userData(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                let mine = Self.session(id: "s-mine")
                let theirs = Self.session(id: "s-theirs", userID: "u_2")
                try await store.createSession(mine)
                try await store.createSession(theirs)
                _ = try await store.recordFeedback(
                    NewFeedback(sessionID: mine.id, promptID: mine.firstRound.prompts[1].id, action: .dismissed, at: Self.now, caller: Self.owner)
                )
                let expiry = Self.now.addingTimeInterval(60)
                try await store.keepIdempotentResponse(
                    .init(status: 200, body: [1], fingerprint: "f", userID: "u_1"),
                    client: "ios",
                    key: "a",
                    expiresAt: expiry
                )
                try await store.keepIdempotentResponse(
                    .init(status: 200, body: [2], fingerprint: "f", userID: "u_2"),
                    client: "ios",
                    key: "b",
                    expiresAt: expiry
                )

                let export = try await store.exportUser(client: "ios", userID: "u_1")
                #expect(export.sessions.map(\.id) == [mine.id])
                #expect(export.feedback.map(\.action) == [.dismissed])
                #expect(try await store.exportUser(client: "web", userID: "u_1").sessions.isEmpty)

                let deleted = try await store.deleteUser(client: "ios", userID: "u_1")
                #expect(deleted.sessions == 1 && deleted.feedback == 1 && deleted.idempotencyRecords == 1)
                #expect(try await store.session(id: mine.id, now: Self.now) == nil)
                #expect(try await store.session(id: theirs.id, now: Self.now) != nil)
                #expect(try await store.idempotentResponse(client: "ios", key: "b", now: Self.now) != nil)
                #expect(try await store.exportUser(client: "ios", userID: "u_1").sessions.isEmpty)
                try await store.close()
            }
        }

        @Test("Pruning removes what expired and keeps the rest", arguments: StoreKind.underTest)
        func pruning(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                try await store.createSession(Self.session(id: "s-old", expiresAt: Self.now.addingTimeInterval(10)))
                try await store.createSession(Self.session(id: "s-new", expiresAt: Self.now.addingTimeInterval(1000)))
                try await store.cache(CacheEntry(key: "old", prompts: [], expiresAt: Self.now.addingTimeInterval(10)), at: Self.now)
                try await store.cache(CacheEntry(key: "new", prompts: [], expiresAt: Self.now.addingTimeInterval(1000)), at: Self.now)
                let later = Self.now.addingTimeInterval(100)
                #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 1, cacheEntries: 1))
                #expect(try await store.session(id: "s-old", now: Self.now) == nil, "gone even for a reader whose clock says it is valid")
                #expect(try await store.session(id: "s-new", now: later) != nil)
                #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 0, cacheEntries: 0))
                try await store.close()
            }
        }

        @Test(
            "Pruning deletes in batches of at most the limit, each its own transaction, until nothing expired is left",
            arguments: StoreKind.underTest
        )
        func pruningInBatches(kind: StoreKind) async throws {
            try await withTestDatabase(kind) { database in
                let store = try await database.open()
                for index in 0..<5 {
                    try await store.createSession(Self.session(id: "s-old-\(index)", expiresAt: Self.now.addingTimeInterval(10)))
                    try await store.cache(CacheEntry(key: "old-\(index)", prompts: [], expiresAt: Self.now.addingTimeInterval(10)), at: Self.now)
                }
                try await store.createSession(Self.session(id: "s-new", expiresAt: Self.now.addingTimeInterval(1000)))
                let later = Self.now.addingTimeInterval(100)
                #expect(try await store.pruneExpiredBatch(now: later, limit: 2) == PruneCount(sessions: 2, cacheEntries: 2))
                #expect(try await store.pruneExpired(now: later, batchSize: 2) == PruneCount(sessions: 3, cacheEntries: 3))
                #expect(try await store.pruneExpiredBatch(now: later, limit: 2) == PruneCount(sessions: 0, cacheEntries: 0))
                #expect(try await store.session(id: "s-new", now: later) != nil)
                try await store.close()
            }
        }

        @Test("PostgreSQL answers for the store tests, or they are reported as skipped (failed under CI)")
        func postgresIsAvailable() async throws {
            // A skipped parameterised case is not printed, so this one test says out loud that the PostgreSQL half of
            // the suite did not run; where a server is named, it must answer a query.
            guard let server = TestDatabase.serverURL else { try MissingDependency.skipOrFail(TestDatabase.noServer) }
            let answer = try await TestDatabase.withConnection(to: server) { connection in
                var values: [Int] = []
                for try await value in try await connection.query("SELECT 40 + 2", logger: TestDatabase.logger).decode(Int.self) {
                    values.append(value)
                }
                return values
            }
            #expect(answer == [42], "PostgreSQL at the test server's URL did not answer a query")
        }

        @Test("Three instances starting together on an empty database migrate it once")
        func concurrentMigrations() async throws {
            try await withTestDatabase(.postgres) { database in
                let stores = try await withThrowingTaskGroup(of: (any PromptStore).self) { group in
                    for _ in 0..<3 { group.addTask { try await database.open() } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(stores.count == 3)
                #expect(try await database.appliedMigrations() == ["v1", "v2", "v3", "v4", "v5", "v6", "v7"])
                let session = Self.session()
                try await stores[0].createSession(session)
                #expect(try await stores[2].session(id: session.id, now: Self.now) != nil)
                for store in stores { try await store.close() }
            }
        }

        @Test("While one instance holds the pruning lock, another instance's prune round removes nothing")
        func oneInstancePrunesAtATime() async throws {
            try await withTestDatabase(.postgres) { database in
                let store = try await database.open()
                try await store.createSession(Self.session(id: "s-old", expiresAt: Self.now.addingTimeInterval(10)))
                let later = Self.now.addingTimeInterval(100)
                try await database.withPostgresConnection { otherInstance in
                    try await otherInstance.query("SELECT pg_advisory_lock(\(Self.pruningLockKey))", logger: TestDatabase.logger)
                    #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 0, cacheEntries: 0))
                    #expect(try await store.session(id: "s-old", now: Self.now) != nil)
                    try await otherInstance.query("SELECT pg_advisory_unlock(\(Self.pruningLockKey))", logger: TestDatabase.logger)
                }
                #expect(try await store.pruneExpired(now: later) == PruneCount(sessions: 1, cacheEntries: 0))
                try await store.close()
            }
        }

        @Test("A PostgreSQL that does not answer fails start-up in time, naming the database without its password")
        func unreachableDatabase() async throws {
            let url = try #require(PostgresURL("postgres://photo:hunter2-secret@127.0.0.1:\(try freeLoopbackPort())/prompts?sslmode=disable"))
            let started = ContinuousClock.now
            await #expect {
                _ = try await PostgresPromptStore.runningItsOwnPool(url: url, startupTimeout: .seconds(1), logger: Logger(label: "test"))
            } throws: { error in
                let message = "\(error)"
                return message.contains("postgres://photo:***@127.0.0.1") && !message.contains("hunter2-secret")
            }
            #expect(ContinuousClock.now - started < .seconds(10))
        }

        /// The pruning lock's key, as documented in docs/DEPLOYMENT.md, so an operator can see who holds it.
        static let pruningLockKey: Int64 = 0x5048_5052_0002

        // MARK: Fixtures

        static func prompt(id: String, text: String) -> Prompt {
            Prompt(id: id, text: text, wordCount: text.split(separator: " ").count, source: .model)
        }

        static func draft(round: Int) -> RoundDraft {
            RoundDraft(
                source: .model,
                prompts: (0..<3).map { prompt(id: "r\(round)-\($0)", text: "What were you thinking about in round \(round), moment \($0)?") },
                answeredBy: BackendIdentity(provider: "stub", model: "stub-1"),
                template: TemplateIdentity(name: "photo-journal", version: "v-abc")
            )
        }

        static func session(
            id: String = "s-\(UUID().uuidString)",
            userID: String = "u_1",
            expiresAt: Date = now.addingTimeInterval(86_400),
            surplus: [ValidPrompt] = []
        ) -> NewSession {
            var first = draft(round: 0)
            first.prompts = first.prompts.map { Prompt(id: "\(id)-\($0.id)", text: $0.text, wordCount: $0.wordCount, source: $0.source) }
            first.surplus = surplus
            return NewSession(
                id: id,
                owner: "ios",
                userID: userID,
                locale: "en-GB",
                photo: PhotoMetadata(takenAt: "2026-11-01T09:30:00+01:00", labels: ["beach", "dog"], peopleCount: 2, caption: "Morning walk"),
                template: TemplateIdentity(name: "photo-journal", version: "v-abc"),
                createdAt: now,
                expiresAt: expiresAt,
                firstRound: first
            )
        }
    }
}

/// A failed expectation about an enum case, with what was found instead.
struct StoreTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
