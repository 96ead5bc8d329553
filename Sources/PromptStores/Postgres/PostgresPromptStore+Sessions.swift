import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Sessions, their refresh slots and turns, and feedback on their prompts (``SessionStore``), in PostgreSQL.
extension PostgresPromptStore {
    public func createSession(_ session: NewSession, caching entry: CacheEntry?) async throws {
        let row = SessionColumns(session)
        let round = RoundRows(firstOf: session)
        let cached = entry.map { CacheEntryRow($0, at: session.createdAt) }
        let history = HistoryRows(firstOf: session)
        // One statement, so one round trip and its own transaction: a new session is the hottest write there is.
        // The foreign keys are checked at the statement's end, when the session row exists. Without a cache entry
        // the `cached` part inserts no row.
        try await client.query(
            """
            WITH cached AS (
                INSERT INTO cacheEntry (key, prompts, createdAt, expiresAt)
                SELECT \(cached?.key ?? ""), \(cached?.prompts ?? "[]"), \(cached?.createdAt ?? 0), \(cached?.expiresAt ?? 0)
                WHERE \(cached != nil)
                ON CONFLICT (key) DO UPDATE SET prompts = excluded.prompts, createdAt = excluded.createdAt, expiresAt = excluded.expiresAt
            ), newSession AS (
                INSERT INTO session (id, userID, locale, photo, templateName, templateVersion, templateVariant, ownerKey,
                    createdAt, expiresAt, surplus)
                VALUES (\(row.id), \(row.userID), \(row.locale), \(row.photo), \(row.templateName), \(row.templateVersion),
                    \(row.templateVariant), \(row.ownerKey), \(row.createdAt), \(row.expiresAt), \(row.surplus))
            ), newHistory AS (
                INSERT INTO promptHistory (ownerKey, userID, prompts, shownAt, expiresAt)
                SELECT \(row.ownerKey), \(session.userID ?? ""), \(ByteBuffer(bytes: history?.prompts ?? Data())), \(round.createdAt),
                    \(history?.expiresAt ?? 0)
                WHERE \(history != nil)
            ), newRound AS (
                INSERT INTO sessionRound (sessionId, round, source, fallbackReason, counted, createdAt, answeredBy, templateVersion)
                VALUES (\(round.sessionID), 0, \(round.source), \(round.fallbackReason), false, \(round.createdAt), \(round.answeredBy),
                    \(round.templateVersion))
            )
            INSERT INTO sessionPrompt (id, sessionId, round, position, text, repeatKey, wordCount, source)
            SELECT id, \(round.sessionID), 0, position, text, repeatKey, wordCount, source
            FROM unnest(\(round.promptIDs)::text[], \(round.positions)::bigint[], \(round.texts)::text[], \(round.repeatKeys)::text[],
                \(round.wordCounts)::bigint[], \(round.sources)::text[]) AS p (id, position, text, repeatKey, wordCount, source)
            """,
            logger: logger
        )
    }

    public func session(id: String, now: Date) async throws -> SessionSnapshot? {
        try await client.withConnection { connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: SessionColumns.names) FROM session WHERE id = \(id) AND expiresAt > \(now.timeIntervalSince1970)",
                logger: logger
            )
            for try await row in rows.decode(SessionColumns.Values.self) {
                return try await snapshot(of: SessionColumns(row), on: connection)
            }
            return nil
        }
    }

    package func snapshot(of session: SessionColumns, on connection: PostgresConnection) async throws -> SessionSnapshot {
        // Rounds first, then prompts: a round and its prompts commit together, so a round committed between the two
        // reads is simply not in the list, rather than listed without its prompts.
        var rounds: [SessionRound] = []
        let roundRows = try await connection.query(
            """
            SELECT round, source, fallbackReason, counted, createdAt, answeredBy, templateVersion
            FROM sessionRound WHERE sessionId = \(session.id) ORDER BY round
            """,
            logger: logger
        )
        for try await (round, source, reason, counted, createdAt, answeredBy, version)
            in roundRows.decode((Int, String, String?, Bool, Double, String?, String?).self)
        {
            rounds.append(
                SessionRound(
                    round: round,
                    source: try StoredValue.decode(PromptSource.self, source),
                    fallbackReason: try reason.map { try StoredValue.decode(FallbackReason.self, $0) },
                    counted: counted,
                    prompts: [],
                    createdAt: Date(timeIntervalSince1970: createdAt),
                    answeredBy: try answeredBy.map { try JSONColumn.decode(BackendIdentity.self, $0) },
                    templateVersion: version
                )
            )
        }
        var promptsByRound: [Int: [Prompt]] = [:]
        let promptRows = try await connection.query(
            "SELECT round, id, text, wordCount, source, repeatKey FROM sessionPrompt WHERE sessionId = \(session.id) ORDER BY round, position",
            logger: logger
        )
        for try await (round, id, text, wordCount, source, repeatKey) in promptRows.decode((Int, String, String, Int, String, String).self) {
            let source = try StoredValue.decode(PromptSource.self, source)
            promptsByRound[round, default: []].append(Prompt(id: id, text: text, wordCount: wordCount, source: source, repeatKey: repeatKey))
        }
        for index in rounds.indices { rounds[index].prompts = promptsByRound[rounds[index].round] ?? [] }
        return try session.snapshot(rounds: rounds)
    }

    public func reserveRefresh(
        sessionID: String,
        limit: Int,
        now date: Date,
        caller: Caller,
        turn holder: String?,
        historyLimit: Int?
    )
        async throws -> RefreshReservation
    {
        let now = date.timeIntervalSince1970
        return try await client.withConnection { connection in
            // PostgreSQL runs concurrent UPDATEs of one row one after another and re-checks the WHERE clause against
            // the row the previous one left, so this single statement is the whole limit, across every instance.
            // Reservations whose lease ran out belong to requests that died; they no longer hold a slot. The turn
            // goes with the slot when nobody else's runs: SET reads the row as it was, RETURNING as it is.
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
                let rows = try await connection.query(
                    "SELECT \(unescaped: SessionColumns.names) FROM session WHERE id = \(sessionID)",
                    logger: logger
                )
                for try await row in rows.decode(SessionColumns.Values.self) {
                    let session = try await snapshot(of: SessionColumns(row), on: connection)
                    let history =
                        if let historyLimit, let userID = session.userID {
                            try await history(client: session.owner, userID: userID, now: date, limit: historyLimit, on: connection)
                        } else { [SeenPrompt]() }
                    return .reserved(ordinal: ordinal, start: RefreshStart(session: session, history: history))
                }
                return .notFound
            }
            // Ownership is part of both statements, so another client's refresh can neither use a slot nor learn
            // that the session exists.
            let current = try await connection.query(
                """
                SELECT refreshesUsed, pendingUntil FROM session
                WHERE id = \(sessionID) AND expiresAt > \(now) AND ownerKey = \(caller.client)
                    AND (userID IS NULL OR userID IS NOT DISTINCT FROM \(caller.userID))
                """,
                logger: logger
            )
            for try await (used, pendingUntil) in current.decode((Int, Double?).self) {
                return .refused(used: used, limit: limit, pendingUntil: pendingUntil, now: date)
            }
            return .notFound
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
        try await client.withTransaction(logger: logger) { connection in
            try await entry.map { CacheEntryRow($0, at: now) }?.upsert(on: connection, logger: logger)
            if let turnHolder {
                try await connection.query("UPDATE session SET turnUntil = 0 WHERE id = \(sessionID) AND turnHolder = \(turnHolder)", logger: logger)
            }
            // The row lock makes concurrent commits of one session take turns, so each sees the prompts the
            // others showed and never repeats one.
            let locked = try await connection.query(
                "SELECT refreshesUsed, nextRound, surplus, ownerKey, userID, locale FROM session WHERE id = \(sessionID) FOR UPDATE",
                logger: logger
            )
            var current: (used: Int, nextRound: Int, surplus: String, owner: String, userID: String?, locale: String)?
            for try await row in locked.decode((Int, Int, String, String, String?, String).self) { current = row }
            guard let current else { throw StoreError.sessionVanished }
            var shown: Set<String> = []
            let keys = try await connection.query("SELECT repeatKey FROM sessionPrompt WHERE sessionId = \(sessionID)", logger: logger)
            for try await key in keys.decode(String.self) { shown.insert(key) }

            var draft = choose(shown)
            let counts = draft.source != .fallback
            (draft.round, draft.counted, draft.createdAt) = (current.nextRound, counts, now)
            // A fallback round leaves the surplus as it was: it showed none of it.
            let surplus = counts ? ValidPrompt.jsonColumn(draft.surplus) : current.surplus
            let round = RoundRows(draft, sessionID: sessionID)
            try await connection.query(
                """
                UPDATE session SET refreshesUsed = refreshesUsed + \(counts ? 1 : 0),
                    refreshesPending = GREATEST(refreshesPending - 1, 0), nextRound = nextRound + 1, surplus = \(surplus)
                WHERE id = \(sessionID)
                """,
                logger: logger
            )
            try await round.insert(on: connection, logger: logger)
            let history = HistoryRows(
                draft,
                owner: current.owner,
                userID: current.userID,
                locale: LanguageTag(locale: current.locale),
                at: now,
                until: historyUntil
            )
            try await history?.insert(on: connection, logger: logger)
            return CommittedRound(round: draft, refreshesUsed: current.used + (counts ? 1 : 0))
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
        for try await mayGo in rows.decode(Bool.self) { return mayGo }
        return true
    }

    public func endRefreshTurn(sessionID: String, holder: String) async throws {
        try await client.query("UPDATE session SET turnUntil = 0 WHERE id = \(sessionID) AND turnHolder = \(holder)", logger: logger)
    }

    public func recordFeedback(_ feedback: NewFeedback) async throws -> FeedbackOutcome {
        try await client.withTransaction(logger: logger) { connection in
            // The row lock makes feedback on one session take turns, so of two prompts selected at once on two
            // instances only one sees no selection before it and counts as the session's first.
            let sessions = try await connection.query(
                """
                SELECT ownerKey, userID, templateName, templateVariant, templateVersion, locale FROM session
                WHERE id = \(feedback.sessionID) AND expiresAt > \(feedback.at.timeIntervalSince1970)
                FOR UPDATE
                """,
                logger: logger
            )
            var session: (owner: String, userID: String?, name: String, variant: String?, version: String, locale: String)?
            for try await row in sessions.decode((String, String?, String, String?, String, String).self) { session = row }
            guard let session, feedback.caller.owns(client: session.owner, userID: session.userID) else { return .sessionNotFound }

            let shownIn = try await connection.query(
                """
                SELECT r.templateVersion FROM sessionPrompt p
                JOIN sessionRound r ON r.sessionId = p.sessionId AND r.round = p.round
                WHERE p.id = \(feedback.promptID) AND p.sessionId = \(feedback.sessionID)
                """,
                logger: logger
            )
            var roundVersion: String??
            for try await version in shownIn.decode(String?.self) { roundVersion = .some(version) }
            guard let roundVersion else { return .promptNotFound }
            let template = TemplateIdentity(name: session.name, variant: session.variant, version: roundVersion ?? session.version)

            // The primary key decides which of many identical taps is the first, whichever instance each reached.
            let inserted = try await connection.query(
                """
                WITH hadSelection AS (
                    SELECT EXISTS (SELECT 1 FROM feedback WHERE sessionId = \(feedback.sessionID) AND action = 'selected') AS value
                )
                INSERT INTO feedback (promptId, action, sessionId, createdAt)
                VALUES (\(feedback.promptID), \(feedback.action.rawValue), \(feedback.sessionID), \(feedback.at.timeIntervalSince1970))
                ON CONFLICT (promptId, action) DO NOTHING
                RETURNING (SELECT value FROM hadSelection)
                """,
                logger: logger
            )
            for try await hadSelection in inserted.decode(Bool.self) {
                return .recorded(.new(feedback, hadSelection: hadSelection, template: template, locale: LanguageTag(locale: session.locale)))
            }
            let existing = try await connection.query(
                "SELECT createdAt FROM feedback WHERE promptId = \(feedback.promptID) AND action = \(feedback.action.rawValue)",
                logger: logger
            )
            var recordedAt = feedback.at
            for try await createdAt in existing.decode(Double.self) { recordedAt = Date(timeIntervalSince1970: createdAt) }
            return .recorded(.repeated(feedback, recordedAt: recordedAt, template: template, locale: LanguageTag(locale: session.locale)))
        }
    }
}
