import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Refresh slots and the session's refresh turn (``SessionStore``), in PostgreSQL.
extension PostgresPromptStore {
    public func reserveRefresh(
        sessionID: String,
        limit: Int,
        now date: Date,
        caller: Caller,
        turn holder: String?,
        historyLimit: Int?
    ) async throws -> RefreshReservation {
        let now = date.timeIntervalSince1970
        return try await client.withConnection { connection in
            // Concurrent UPDATEs of one row run in turn, each re-checking WHERE on the row the last one left, so this
            // statement is the whole limit, across instances; a lapsed lease holds no slot. The turn goes with the
            // slot when nobody else's runs: SET reads the row as it was, RETURNING as it is.
            let reserved = try await connection.query(
                """
                UPDATE session SET
                    refreshesPending = (CASE WHEN pendingUntil > \(now) THEN refreshesPending ELSE 0 END) + 1,
                    pendingUntil = \(now + claimLease),
                    turnHolder = CASE WHEN \(holder != nil) AND (turnUntil <= \(now) OR turnHolder = \(holder)) THEN \(holder)
                        ELSE turnHolder END,
                    turnUntil = CASE WHEN \(holder != nil) AND (turnUntil <= \(now) OR turnHolder = \(holder)) THEN \(now + claimLease)
                        ELSE turnUntil END
                WHERE id = \(sessionID) AND expiresAt > \(now) AND ownerKey = \(caller.client)
                    AND (userID IS NULL OR userID IS NOT DISTINCT FROM \(caller.userID))
                    AND refreshesUsed + (CASE WHEN pendingUntil > \(now) THEN refreshesPending ELSE 0 END) < \(limit)
                RETURNING refreshesUsed + refreshesPending, \(holder != nil) AND turnHolder IS NOT DISTINCT FROM \(holder)
                """,
                logger: logger
            )
            for try await (ordinal, hasTurn) in reserved.decode((Int, Bool).self) {
                guard hasTurn else { return .reserved(ordinal: ordinal) }
                guard let session = try await session(id: sessionID, now: date, on: connection) else { return .notFound }
                let history =
                    if let historyLimit, let userID = session.userID {
                        try await history(client: session.owner, userID: userID, now: date, limit: historyLimit, on: connection)
                    } else { SeenHistory() }
                return .reserved(ordinal: ordinal, start: RefreshStart(session: session, history: history))
            }
            // Ownership is in both statements: another client can neither use a slot nor learn the session exists.
            let current = try await connection.query(
                """
                SELECT refreshesUsed, pendingUntil FROM session
                WHERE id = \(sessionID) AND expiresAt > \(now) AND ownerKey = \(caller.client)
                    AND (userID IS NULL OR userID IS NOT DISTINCT FROM \(caller.userID))
                """,
                logger: logger
            )
            guard let row = try await current.decodeFirst((Int, Double?).self) else { return .notFound }
            return .refused(used: row.0, limit: limit, pendingUntil: row.1, now: date)
        }
    }

    public func commitRefresh(
        sessionID: String,
        now: Date,
        historyUntil: Date?,
        turnHolder: String?,
        caching entry: CacheEntry?,
        round: SessionRound,
        assumingShown assumedShown: Set<String>
    ) async throws -> RefreshCommitOutcome {
        try await client.withTransaction(logger: logger) { connection in
            // The row lock makes concurrent commits take turns, so each sees the others' prompts and repeats none.
            let locked = try await connection.query(
                "SELECT \(unescaped: RefreshCommit.names) FROM session WHERE id = \(sessionID) FOR UPDATE",
                logger: logger
            )
            guard let current = try await locked.decodeFirst(RefreshCommit.Values.self) else { throw StoreError.sessionVanished }
            let keys = try await connection.query("SELECT repeatKey FROM sessionPrompt WHERE sessionId = \(sessionID)", logger: logger)
            let shown = try await keys.decode(String.self).reduce(into: Set<String>()) { $0.insert($1) }
            guard shown.isSubset(of: assumedShown) else { return .shownMeanwhile(shown) }
            try await entry.map { CacheEntryRow($0, at: now) }?.upsert(on: connection, logger: logger)
            if let turnHolder {
                try await connection.query("UPDATE session SET turnUntil = 0 WHERE id = \(sessionID) AND turnHolder = \(turnHolder)", logger: logger)
            }
            let commit = try RefreshCommit(current, round: round, sessionID: sessionID, now: now, historyUntil: historyUntil)
            try await connection.query(
                """
                UPDATE session SET refreshesUsed = refreshesUsed + \(commit.added),
                    refreshesPending = GREATEST(refreshesPending - 1, 0), nextRound = nextRound + 1, surplus = \(commit.surplus)
                WHERE id = \(sessionID)
                """,
                logger: logger
            )
            try await commit.round.insert(on: connection, logger: logger)
            try await commit.history?.insert(on: connection, logger: logger)
            return .committed(commit.committed)
        }
    }

    public func releaseRefresh(sessionID: String) async throws {
        try await client.query(
            "UPDATE session SET refreshesPending = GREATEST(refreshesPending - 1, 0) WHERE id = \(sessionID)",
            logger: logger
        )
    }

    public func takeRefreshTurn(sessionID: String, holder: String, now: Date) async throws -> Bool {
        let now = now.timeIntervalSince1970
        let rows = try await client.query(
            """
            WITH taken AS (
                UPDATE session SET turnHolder = \(holder), turnUntil = \(now + claimLease)
                WHERE id = \(sessionID) AND (turnUntil <= \(now) OR turnHolder = \(holder))
                RETURNING 1
            )
            SELECT EXISTS (SELECT 1 FROM taken) OR NOT EXISTS (SELECT 1 FROM session WHERE id = \(sessionID))
            """,
            logger: logger
        )
        return try await rows.decodeFirst(Bool.self) ?? true
    }

    public func endRefreshTurn(sessionID: String, holder: String) async throws {
        try await client.query("UPDATE session SET turnUntil = 0 WHERE id = \(sessionID) AND turnHolder = \(holder)", logger: logger)
    }
}
