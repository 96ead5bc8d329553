import Foundation
import GRDB
import PromptDomain

/// Refresh slots and the session's refresh turn (``SessionStore``), in SQLite.
extension SQLitePromptStore {
    public func reserveRefresh(
        sessionID: String,
        limit: Int,
        now: Date,
        caller: Caller,
        turn holder: String?,
        historyLimit: Int?
    ) async throws -> RefreshReservation {
        try await writer.write { db in
            // Ownership is in both statements: another client can neither use a slot nor learn the session exists.
            let owned = "id = :id AND expiresAt > :now AND ownerKey = :client AND (userID IS NULL OR userID IS :user)"
            // Reservations whose lease ran out belong to requests that died; they no longer hold a slot.
            let livePending = "CASE WHEN pendingUntil > :now THEN refreshesPending ELSE 0 END"
            // The turn goes with the slot when nobody else's runs; SET reads the row as it was before.
            let takesTurn = ":holder IS NOT NULL AND (turnUntil <= :now OR turnHolder = :holder)"
            let arguments: StatementArguments = [
                "id": sessionID, "now": now.timeIntervalSince1970, "client": caller.client, "user": caller.userID,
                "limit": limit, "until": now.timeIntervalSince1970 + claimLease, "holder": holder,
            ]
            // The whole limit is this one conditional UPDATE: concurrent callers cannot all read "4 used" and pass.
            try db.execute(
                sql: """
                    UPDATE session SET refreshesPending = \(livePending) + 1, pendingUntil = :until,
                        turnHolder = CASE WHEN \(takesTurn) THEN :holder ELSE turnHolder END,
                        turnUntil = CASE WHEN \(takesTurn) THEN :until ELSE turnUntil END
                    WHERE \(owned) AND refreshesUsed + \(livePending) < :limit
                    """,
                arguments: arguments
            )
            let reserved = db.changesCount == 1
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT refreshesUsed, \(livePending) AS pending, pendingUntil, turnHolder IS :holder AND turnUntil > :now AS hasTurn
                    FROM session WHERE \(owned)
                    """,
                arguments: arguments
            )
            guard let row else { return .notFound }
            let used: Int = row["refreshesUsed"]
            let pending: Int = row["pending"]
            guard reserved else { return RefreshReservation.refused(used: used, limit: limit, pendingUntil: row["pendingUntil"], now: now) }
            guard holder != nil, row["hasTurn"] as Bool else { return .reserved(ordinal: used + pending) }
            guard let session = try Self.session(id: sessionID, now: now, db: db) else { return .notFound }
            let history =
                if let historyLimit, let userID = session.userID {
                    try Self.history(client: session.owner, userID: userID, now: now, limit: historyLimit, db: db)
                } else { SeenHistory() }
            return .reserved(ordinal: used + pending, start: RefreshStart(session: session, history: history))
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
        let cached = entry.map { CacheEntryRow($0, at: now) }
        return try await writer.write { db in
            let row = try Row.fetchOne(db, sql: "SELECT \(RefreshCommit.names) FROM session WHERE id = ?", arguments: [sessionID])
            guard let row else { throw StoreError.sessionVanished }
            let shown = try String.fetchSet(db, sql: "SELECT repeatKey FROM sessionPrompt WHERE sessionId = ?", arguments: [sessionID])
            guard shown.isSubset(of: assumedShown) else { return .shownMeanwhile(shown) }
            try cached?.upsert(into: db)
            if let turnHolder {
                try db.execute(sql: "UPDATE session SET turnUntil = 0 WHERE id = ? AND turnHolder = ?", arguments: [sessionID, turnHolder])
            }
            let current: RefreshCommit.Values = (row[0], row[1], row[2], row[3], row[4], row[5], row[6])
            let commit = try RefreshCommit(current, round: round, sessionID: sessionID, now: now, historyUntil: historyUntil)
            try db.execute(
                sql: """
                    UPDATE session SET refreshesUsed = refreshesUsed + ?, refreshesPending = MAX(refreshesPending - 1, 0),
                    nextRound = nextRound + 1, surplus = ? WHERE id = ?
                    """,
                arguments: [commit.added, commit.surplus, sessionID]
            )
            try commit.round.insert(into: db)
            try commit.history?.insert(into: db)
            return .committed(commit.committed)
        }
    }

    public func releaseRefresh(sessionID: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE session SET refreshesPending = MAX(refreshesPending - 1, 0) WHERE id = ?",
                arguments: [sessionID]
            )
        }
    }

    public func takeRefreshTurn(sessionID: String, holder: String, now: Date) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE session SET turnHolder = ?, turnUntil = ? WHERE id = ? AND (turnUntil <= ? OR turnHolder = ?)",
                arguments: [holder, now.timeIntervalSince1970 + claimLease, sessionID, now.timeIntervalSince1970, holder]
            )
            if db.changesCount == 1 { return true }
            return try Int.fetchOne(db, sql: "SELECT 1 FROM session WHERE id = ?", arguments: [sessionID]) == nil
        }
    }

    public func endRefreshTurn(sessionID: String, holder: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE session SET turnUntil = 0 WHERE id = ? AND turnHolder = ?", arguments: [sessionID, holder])
        }
    }
}
