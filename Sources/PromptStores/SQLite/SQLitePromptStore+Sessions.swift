import Foundation
import GRDB
import PromptDomain

/// Sessions, their refresh slots and turns, and feedback on their prompts (``SessionStore``), in SQLite.
extension SQLitePromptStore {
    public func createSession(_ session: NewSession, caching entry: CacheEntry?) async throws {
        let row = SessionColumns(session)
        let firstRound = RoundRows(firstOf: session)
        let cached = entry.map { CacheEntryRow($0, at: session.createdAt) }
        let history = HistoryRows(firstOf: session)
        try await batcher.write { db in
            try row.insert(into: db)
            try firstRound.insert(into: db)
            try history?.insert(into: db)
            try cached?.upsert(into: db)
        }
    }

    public func session(id: String, now: Date) async throws -> SessionSnapshot? {
        try await writer.read { db in
            let sql = "SELECT \(SessionColumns.names) FROM session WHERE id = ? AND expiresAt > ?"
            guard let row = try SessionColumns.fetchOne(db, sql: sql, arguments: [id, now.timeIntervalSince1970]) else { return nil }
            return try Self.snapshot(of: row, db: db)
        }
    }

    package static func snapshot(of record: SessionColumns, db: Database) throws -> SessionSnapshot {
        let rounds = try SessionRoundRecord.filter(Column("sessionId") == record.id).order(Column("round")).fetchAll(db)
        let prompts = try SessionPromptRecord.filter(Column("sessionId") == record.id).order(Column("round"), Column("position")).fetchAll(db)
        let promptsByRound = Dictionary(grouping: prompts, by: \.round)
        return try record.snapshot(rounds: rounds.map { try $0.round(prompts: promptsByRound[$0.round] ?? []) })
    }

    public func reserveRefresh(
        sessionID: String,
        limit: Int,
        now: Date,
        caller: Caller,
        turn holder: String?,
        historyLimit: Int?
    ) async throws
        -> RefreshReservation
    {
        try await writer.write { db in
            // Ownership is part of both statements, so another client's refresh can neither use a slot nor learn
            // that the session exists.
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
            let columns = try SessionColumns.fetchOne(db, sql: "SELECT \(SessionColumns.names) FROM session WHERE id = ?", arguments: [sessionID])
            guard let columns else { return .notFound }
            let session = try Self.snapshot(of: columns, db: db)
            let history =
                if let historyLimit, let userID = session.userID {
                    try Self.history(client: session.owner, userID: userID, now: now, limit: historyLimit, db: db)
                } else { [SeenPrompt]() }
            return .reserved(ordinal: used + pending, start: RefreshStart(session: session, history: history))
        }
    }

    public func commitRefresh(
        sessionID: String,
        now: Date,
        historyUntil: Date?,
        turnHolder: String?,
        caching entry: CacheEntry?,
        choose: @Sendable (Set<String>) -> SessionRound
    ) async throws -> CommittedRound {
        let cached = entry.map { CacheEntryRow($0, at: now) }
        return try await writer.write { db in
            try cached?.upsert(into: db)
            if let turnHolder {
                try db.execute(sql: "UPDATE session SET turnUntil = 0 WHERE id = ? AND turnHolder = ?", arguments: [sessionID, turnHolder])
            }
            let current = try Row.fetchOne(
                db,
                sql: "SELECT refreshesUsed, nextRound, surplus, ownerKey, userID, locale FROM session WHERE id = ?",
                arguments: [sessionID]
            )
            guard let current else { throw StoreError.sessionVanished }
            let (used, nextRound, storedSurplus): (Int, Int, String) = (current[0], current[1], current[2])
            let shown = try String.fetchSet(db, sql: "SELECT repeatKey FROM sessionPrompt WHERE sessionId = ?", arguments: [sessionID])
            var draft = choose(shown)
            let counts = draft.source != .fallback
            (draft.round, draft.counted, draft.createdAt) = (nextRound, counts, now)
            // A fallback round leaves the surplus as it was: it showed none of it.
            let surplus = counts ? ValidPrompt.jsonColumn(draft.surplus) : storedSurplus
            try db.execute(
                sql: """
                    UPDATE session SET refreshesUsed = refreshesUsed + ?, refreshesPending = MAX(refreshesPending - 1, 0),
                    nextRound = nextRound + 1, surplus = ? WHERE id = ?
                    """,
                arguments: [counts ? 1 : 0, surplus, sessionID]
            )
            try RoundRows(draft, sessionID: sessionID).insert(into: db)
            try HistoryRows(
                draft,
                owner: current["ownerKey"],
                userID: current["userID"],
                locale: LanguageTag(locale: current["locale"]),
                at: now,
                until: historyUntil
            )?
            .insert(into: db)
            return CommittedRound(round: draft, refreshesUsed: used + (counts ? 1 : 0))
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

    public func recordFeedback(_ feedback: NewFeedback) async throws -> FeedbackOutcome {
        try await writer.write { db in
            let sql = "SELECT \(SessionColumns.names) FROM session WHERE id = ? AND expiresAt > ?"
            guard
                let session = try SessionColumns.fetchOne(db, sql: sql, arguments: [feedback.sessionID, feedback.at.timeIntervalSince1970]),
                feedback.caller.owns(client: session.ownerKey, userID: session.userID)
            else { return .sessionNotFound }
            let shownIn = try Row.fetchOne(
                db,
                sql: """
                    SELECT r.templateVersion FROM sessionPrompt p
                    JOIN sessionRound r ON r.sessionId = p.sessionId AND r.round = p.round
                    WHERE p.id = ? AND p.sessionId = ?
                    """,
                arguments: [feedback.promptID, feedback.sessionID]
            )
            guard let shownIn else { return .promptNotFound }
            let version: String = shownIn["templateVersion"] ?? session.templateVersion
            let template = TemplateIdentity(name: session.templateName, variant: session.templateVariant, version: version)
            if let existing = try FeedbackRecord.fetchOne(db, key: ["promptId": feedback.promptID, "action": feedback.action.rawValue]) {
                return .recorded(
                    .repeated(
                        feedback,
                        recordedAt: Date(timeIntervalSince1970: existing.createdAt),
                        template: template,
                        locale: LanguageTag(locale: session.locale)
                    )
                )
            }
            let hadSelection =
                try FeedbackRecord.filter(Column("sessionId") == feedback.sessionID && Column("action") == FeedbackAction.selected.rawValue)
                .fetchCount(db) > 0
            try FeedbackRecord(
                promptId: feedback.promptID,
                action: feedback.action.rawValue,
                sessionId: feedback.sessionID,
                createdAt: feedback.at.timeIntervalSince1970
            ).insert(db)
            return .recorded(.new(feedback, hadSelection: hadSelection, template: template, locale: LanguageTag(locale: session.locale)))
        }
    }
}
