import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PostgresNIO
import PromptDomain
import PromptStores
import Testing

/// The refresh limit, its reservations and turns, across instances.
extension SystemTests.StoreContractTests {
    @Test(
        "50 concurrent refreshes through two store instances reserve exactly 5, and no prompt is shown twice",
        arguments: StoreKind.withTwin
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
                                SessionRound(
                                    source: .model,
                                    prompts: Array(pool.filter { !shown.contains(PromptNormalizer.repeatKey($0.text)) }.prefix(3)),
                                    createdAt: Self.now
                                )
                            }
                        }
                        return reservation
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let reserved = outcomes.compactMap { outcome -> Int? in
                if case .reserved(let ordinal, _) = outcome { return ordinal }
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

    @Test("A fallback round gives its slot back; a released reservation too", arguments: StoreKind.withTwin)
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
                SessionRound(
                    source: .fallback,
                    fallbackReason: .timeout,
                    prompts: [Self.prompt(id: "f1", text: "What made you stop and take this photo today?")],
                    createdAt: Self.now
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
        arguments: StoreKind.withTwin
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
                    SessionRound(
                        source: .model,
                        prompts: [Self.prompt(id: "r\(ordinal)", text: "What did refresh number \(ordinal) make you remember today?")],
                        createdAt: Self.now
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
            let fifth = try await store.commitRefresh(sessionID: session.id, now: later) { _ in
                SessionRound(
                    source: .model,
                    prompts: [Self.prompt(id: "r5", text: "What did the fifth refresh make you remember today?")],
                    createdAt: Self.now
                )
            }
            // The store numbers, counts and dates the round it keeps, and reads back the same.
            #expect((fifth.round.round, fifth.round.counted, fifth.round.createdAt, fifth.refreshesUsed) == (5, true, later, 5))
            let read = try #require(try await store.session(id: session.id, now: later))
            #expect(read.rounds.map(\.round) == Array(0...5))
            #expect(read.rounds.map(\.counted) == [false] + Array(repeating: true, count: 5))
            #expect(read.rounds.last?.createdAt == later)
            // Now 5 are delivered: the limit.
            #expect(
                try await store.reserveRefresh(sessionID: session.id, limit: 5, now: later, caller: Self.owner) == .limitReached(refreshesUsed: 5)
            )
            try await store.close()
        }
    }

    @Test("Two taps at 0 used are both served, never a 6th; a slot whose lease expired is free at once", arguments: StoreKind.withTwin)
    func overlapAtZeroAndExpiredSlot(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let store = try await database.open(claimLease: 30)
            let session = Self.session()
            try await store.createSession(session)
            async let first = store.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: Self.owner)
            async let second = store.reserveRefresh(sessionID: session.id, limit: 5, now: Self.now, caller: Self.owner)
            let both = [try await first, try await second]
            #expect(both.contains(.reserved(ordinal: 1)) && both.contains(.reserved(ordinal: 2)))
            // Both holders die; at the lease's end their slots are free at once, counted from none.
            let expired = Self.now.addingTimeInterval(30.5)
            #expect(try await store.reserveRefresh(sessionID: session.id, limit: 5, now: expired, caller: Self.owner) == .reserved(ordinal: 1))
            try await store.close()
        }
    }

    @Test("A reservation held by a process that died lapses after the lease, and its slot comes back", arguments: StoreKind.withTwin)
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

    @Test("Refresh turns: one holder at a time across instances, handed on when ended, lapsing with the lease", arguments: StoreKind.withTwin)
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

    @Test("Another client or user cannot refresh a session, and spends none of its slots", arguments: StoreKind.withTwin)
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
}
