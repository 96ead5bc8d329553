import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Sessions and feedback on their prompts (``SessionStore``; refresh slots and turns in `+Refresh`), in PostgreSQL.
extension PostgresPromptStore {
    public func createSession(_ session: SessionSnapshot, historyUntil: Date?, caching entry: CacheEntry?) async throws {
        let row = SessionColumns(session)
        let round = RoundRows(firstOf: session)
        let cached = entry.map { CacheEntryRow($0, at: session.createdAt) }
        let history = HistoryRows(firstOf: session, until: historyUntil)
        // One statement, one round trip and transaction: the hottest write. Foreign keys are checked at its end,
        // when the session row exists. Without a cache entry the `cached` part inserts no row.
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
        try await client.withConnection { connection in try await session(id: id, now: now, on: connection) }
    }

    /// The session with its rounds, unless it is unknown or expired at `now`, on the caller's connection.
    func session(id: String, now: Date, on connection: PostgresConnection) async throws -> SessionSnapshot? {
        let rows = try await connection.query(
            "SELECT \(unescaped: SessionColumns.names) FROM session WHERE id = \(id) AND expiresAt > \(now.timeIntervalSince1970)",
            logger: logger
        )
        guard let row = try await rows.decodeFirst(SessionColumns.Values.self) else { return nil }
        return try await snapshot(of: SessionColumns(row), on: connection)
    }

    package func snapshot(of session: SessionColumns, on connection: PostgresConnection) async throws -> SessionSnapshot {
        // Rounds first: a round commits with its prompts, so one committed between the reads is missing, not empty.
        let rounds = try await connection.query(
            "SELECT \(unescaped: SessionColumns.roundNames) FROM sessionRound WHERE sessionId = \(session.id) ORDER BY round",
            logger: logger
        ).decodeAll(SessionColumns.RoundValues.self)
        let prompts = try await connection.query(
            "SELECT \(unescaped: SessionColumns.promptNames) FROM sessionPrompt WHERE sessionId = \(session.id) ORDER BY round, position",
            logger: logger
        ).decodeAll(SessionColumns.PromptValues.self)
        return try session.snapshot(rounds: rounds, prompts: prompts)
    }

    public func recordFeedback(_ feedback: Feedback) async throws -> FeedbackOutcome {
        try await client.withTransaction(logger: logger) { connection in
            // The row lock serializes a session's feedback: of two selections at once, only one counts as the first.
            let sessions = try await connection.query(
                """
                SELECT ownerKey, userID, templateName, templateVariant, templateVersion, locale FROM session
                WHERE id = \(feedback.sessionID) AND expiresAt > \(feedback.at.timeIntervalSince1970)
                FOR UPDATE
                """,
                logger: logger
            )
            let session: (owner: String, userID: String?, name: String, variant: String?, version: String, locale: String)? =
                try await sessions.decodeFirst((String, String?, String, String?, String, String).self)
            guard let session, feedback.caller.owns(client: session.owner, userID: session.userID) else { return .sessionNotFound }

            let shownIn = try await connection.query(
                """
                SELECT r.templateVersion FROM sessionPrompt p
                JOIN sessionRound r ON r.sessionId = p.sessionId AND r.round = p.round
                WHERE p.id = \(feedback.promptID) AND p.sessionId = \(feedback.sessionID)
                """,
                logger: logger
            )
            // A row whose version is NULL (written before v3) is a prompt found: the session's version stands in.
            guard let roundVersion = try await shownIn.decodeFirst(String?.self) else { return .promptNotFound }
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
            let recordedAt = try await existing.decodeFirst(Double.self).map { Date(timeIntervalSince1970: $0) } ?? feedback.at
            return .recorded(.repeated(feedback, recordedAt: recordedAt, template: template, locale: LanguageTag(locale: session.locale)))
        }
    }
}
