import Foundation
import Logging
import PostgresNIO

/// The ``PromptStore`` on PostgreSQL through postgres-nio, for several instances sharing one database.
///
/// Every rule that must hold across instances is enforced by PostgreSQL itself, never by one process's memory:
/// - the refresh limit is one conditional `UPDATE`, which PostgreSQL serialises per row;
/// - refreshes of a session take turns through a leased column, and a refresh's commit locks the session row
///   (`FOR UPDATE`), so concurrent refreshes see each other's prompts;
/// - an idempotency key is claimed, and feedback recorded, by one `INSERT … ON CONFLICT` on a primary key;
/// - migrations and pruning run under advisory locks (``AdvisoryLockKey``).
///
/// Cache entries are also kept in memory in front of the table: an entry never changes under its key, so a copy
/// can only be stale by expiry, which every read checks.
public final class PostgresPromptStore: PromptStore {
    private let client: PostgresClient
    /// Runs the connection pool. The pool must be running before the migrations at start-up, and must outlive the
    /// HTTP server at shutdown, so the store owns it rather than the service group.
    private let pool: Task<Void, Never>
    private let logger: Logger
    private let claimLease: TimeInterval
    private let memory = MemoryCacheLayer()

    /// Connects to `url`, then migrates under the migration lock.
    ///
    /// - Parameters:
    ///   - maxConnections: The pool's size; PostgreSQL's own `max_connections` must cover every instance's pool.
    ///   - startupTimeout: How long to wait for the server to answer and the migrations to run.
    /// - Throws: `unreachable` naming the database (password masked) when it does not answer in time, or the error
    ///   of a failed migration.
    public init(
        url: PostgresURL,
        maxConnections: Int = 20,
        claimLease: TimeInterval = PromptStoreDefaults.claimLease,
        startupTimeout: Duration = .seconds(15),
        logger: Logger
    ) async throws {
        var configuration = url.clientConfiguration
        configuration.options.maximumConnections = maxConnections
        configuration.options.connectTimeout = .seconds(5)
        // The pool's own chatter (a connection closed, a lease before the pool task started) stays out of the log;
        // what fails a query reaches the caller as an error.
        var poolLogger = logger
        poolLogger.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
        self.client = client
        self.pool = Task { await client.run() }
        self.logger = logger
        self.claimLease = claimLease
        do {
            // The pool retries a server that does not answer for ever; start-up must fail instead, and say why.
            let applied = try await Self.withDeadline(startupTimeout, failing: StoreError.unreachable(url.redacted, startupTimeout)) {
                try await PostgresMigrations.migrate(client, logger: logger)
            }
            if !applied.isEmpty { logger.info("migrated the database", metadata: ["migrations": "\(applied.joined(separator: ","))"]) }
        } catch {
            pool.cancel()
            throw error
        }
    }

    private static func withDeadline<Value: Sendable>(
        _ timeout: Duration,
        failing error: any Error,
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw error
            }
            defer { group.cancelAll() }
            // The first to finish decides: the body's value or error, or the deadline's error.
            guard let value = try await group.next() else { throw error }
            return value
        }
    }

    public func close() async throws {
        pool.cancel()
        await pool.value
    }

    public func ping() async throws {
        try await client.query("SELECT 1", logger: logger)
    }

    // MARK: Cache

    public func cachedPrompts(forKey key: String, now: Date) async throws -> [ValidPrompt]? {
        if let prompts = memory.prompts(forKey: key, now: now) { return prompts }
        let rows = try await client.query(
            "SELECT prompts, expiresAt FROM cacheEntry WHERE key = \(key) AND expiresAt > \(now.timeIntervalSince1970)",
            logger: logger
        )
        for try await (json, expiresAt) in rows.decode((String, Double).self) {
            let prompts = try JSONColumn.decode([ValidPrompt].self, json)
            memory.store(prompts, forKey: key, expiresAt: Date(timeIntervalSince1970: expiresAt))
            return prompts
        }
        return nil
    }

    public func cachePrompts(_ prompts: [ValidPrompt], forKey key: String, expiresAt: Date) async throws {
        let row = CacheEntryRow(CacheEntry(key: key, prompts: prompts, expiresAt: expiresAt), at: Date())
        memory.store(prompts, forKey: key, expiresAt: expiresAt)
        try await client.query(
            """
            INSERT INTO cacheEntry (key, prompts, createdAt, expiresAt)
            VALUES (\(row.key), \(row.prompts), \(row.createdAt), \(row.expiresAt))
            ON CONFLICT (key) DO UPDATE SET prompts = excluded.prompts, createdAt = excluded.createdAt, expiresAt = excluded.expiresAt
            """,
            logger: logger
        )
    }

    // MARK: Sessions

    public func createSession(_ session: NewSession, caching entry: CacheEntry?) async throws {
        let row = SessionRows(session)
        let round = row.firstRound
        let cached = entry.map { CacheEntryRow($0, at: Date()) }
        if let entry { memory.store(entry.prompts, forKey: entry.key, expiresAt: entry.expiresAt) }
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
                VALUES (\(row.id), \(row.userID), \(row.locale), \(row.photo), \(row.template.name), \(row.template.version),
                    \(row.template.variant), \(row.owner), \(row.createdAt), \(row.expiresAt), \(row.surplus))
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
                "SELECT \(unescaped: SessionRow.columns) FROM session WHERE id = \(id) AND expiresAt > \(now.timeIntervalSince1970)",
                logger: logger
            )
            for try await row in rows.decode(SessionRow.Columns.self) {
                return try await snapshot(of: SessionRow(row), on: connection)
            }
            return nil
        }
    }

    private func snapshot(of session: SessionRow, on connection: PostgresConnection) async throws -> SessionSnapshot {
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
            "SELECT round, id, text, wordCount, source FROM sessionPrompt WHERE sessionId = \(session.id) ORDER BY round, position",
            logger: logger
        )
        for try await (round, id, text, wordCount, source) in promptRows.decode((Int, String, String, Int, String).self) {
            promptsByRound[round, default: []].append(
                Prompt(id: id, text: text, wordCount: wordCount, source: try StoredValue.decode(PromptSource.self, source))
            )
        }
        for index in rounds.indices { rounds[index].prompts = promptsByRound[rounds[index].round] ?? [] }
        return try session.snapshot(rounds: rounds)
    }

    // MARK: Refreshes

    public func reserveRefresh(sessionID: String, limit: Int, now: Date, caller: Caller) async throws -> RefreshReservation {
        let now = now.timeIntervalSince1970
        // PostgreSQL runs concurrent UPDATEs of one row one after another and re-checks the WHERE clause against
        // the row the previous one left, so this single statement is the whole limit, across every instance.
        // Reservations whose lease ran out belong to requests that died; they no longer hold a slot.
        let reserved = try await client.query(
            """
            UPDATE session SET
                refreshesPending = (CASE WHEN pendingUntil > \(now) THEN refreshesPending ELSE 0 END) + 1,
                pendingUntil = \(now + claimLease)
            WHERE id = \(sessionID) AND expiresAt > \(now) AND ownerKey = \(caller.client)
                AND (userID IS NULL OR userID IS NOT DISTINCT FROM \(caller.userID))
                AND refreshesUsed + (CASE WHEN pendingUntil > \(now) THEN refreshesPending ELSE 0 END) < \(limit)
            RETURNING refreshesUsed + refreshesPending
            """,
            logger: logger
        )
        for try await ordinal in reserved.decode(Int.self) {
            return .reserved(ordinal: ordinal)
        }
        // Ownership is part of both statements, so another client's refresh can neither use a slot nor learn
        // that the session exists.
        let current = try await client.query(
            """
            SELECT refreshesUsed + (CASE WHEN pendingUntil > \(now) THEN refreshesPending ELSE 0 END) FROM session
            WHERE id = \(sessionID) AND expiresAt > \(now) AND ownerKey = \(caller.client)
                AND (userID IS NULL OR userID IS NOT DISTINCT FROM \(caller.userID))
            """,
            logger: logger
        )
        for try await taken in current.decode(Int.self) {
            return .limitReached(refreshesUsed: min(limit, taken))
        }
        return .notFound
    }

    public func commitRefresh(sessionID: String, now: Date, choose: @Sendable (Set<String>) -> RoundDraft) async throws -> CommittedRound {
        try await client.withTransaction(logger: logger) { connection in
            // The row lock makes concurrent commits of one session take turns, so each sees the prompts the
            // others showed and never repeats one.
            let locked = try await connection.query(
                "SELECT refreshesUsed, nextRound, surplus FROM session WHERE id = \(sessionID) FOR UPDATE",
                logger: logger
            )
            var current: (used: Int, nextRound: Int, surplus: String)?
            for try await row in locked.decode((Int, Int, String).self) { current = row }
            guard let current else { throw StoreError.sessionVanished }
            var shown: Set<String> = []
            let keys = try await connection.query("SELECT repeatKey FROM sessionPrompt WHERE sessionId = \(sessionID)", logger: logger)
            for try await key in keys.decode(String.self) { shown.insert(key) }

            let draft = choose(shown)
            let counts = draft.source != .fallback
            // A fallback round leaves the surplus as it was: it showed none of it.
            let surplus = counts ? ValidPrompt.jsonColumn(draft.surplus) : current.surplus
            let round = RoundRows(draft, round: current.nextRound, counted: counts, sessionID: sessionID, at: now)
            try await connection.query(
                """
                UPDATE session SET refreshesUsed = refreshesUsed + \(counts ? 1 : 0),
                    refreshesPending = GREATEST(refreshesPending - 1, 0), nextRound = nextRound + 1, surplus = \(surplus)
                WHERE id = \(sessionID)
                """,
                logger: logger
            )
            try await round.insert(on: connection, logger: logger)
            return CommittedRound(draft: draft, refreshesUsed: current.used + (counts ? 1 : 0))
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

    // MARK: Feedback and stats

    public func recordFeedback(_ feedback: NewFeedback) async throws -> FeedbackOutcome {
        try await client.withTransaction(logger: logger) { connection in
            // The row lock makes feedback on one session take turns, so of two prompts selected at once on two
            // instances only one sees no selection before it and counts as the session's first.
            let sessions = try await connection.query(
                """
                SELECT ownerKey, userID, templateName, templateVariant, templateVersion FROM session
                WHERE id = \(feedback.sessionID) AND expiresAt > \(feedback.at.timeIntervalSince1970)
                FOR UPDATE
                """,
                logger: logger
            )
            var session: (owner: String, userID: String?, name: String, variant: String?, version: String)?
            for try await row in sessions.decode((String, String?, String, String?, String).self) { session = row }
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
                return .recorded(.new(feedback, hadSelection: hadSelection, template: template))
            }
            let existing = try await connection.query(
                "SELECT createdAt FROM feedback WHERE promptId = \(feedback.promptID) AND action = \(feedback.action.rawValue)",
                logger: logger
            )
            var recordedAt = feedback.at
            for try await createdAt in existing.decode(Double.self) { recordedAt = Date(timeIntervalSince1970: createdAt) }
            return .recorded(.repeated(feedback, recordedAt: recordedAt, template: template))
        }
    }

    public func addStats(_ counters: [StatsCounter]) async throws {
        guard !counters.isEmpty else { return }
        // One statement for the whole batch; counts from every instance add up in the same rows.
        try await client.query(
            """
            INSERT INTO templateStats (bucket, template, variant, version, counter, value)
            SELECT * FROM unnest(\(counters.map(\.bucket))::bigint[], \(counters.map(\.template.name))::text[],
                \(counters.map(\.template.variant))::text[], \(counters.map(\.template.version))::text[],
                \(counters.map(\.name))::text[], \(counters.map(\.value))::bigint[])
            ON CONFLICT (template, bucket, variant, version, counter) DO UPDATE SET value = templateStats.value + excluded.value
            """,
            logger: logger
        )
    }

    public func stats(template name: String, from: Date, to: Date) async throws -> [StatsCounter] {
        let rows = try await client.query(
            """
            SELECT bucket, variant, version, counter, value FROM templateStats
            WHERE template = \(name) AND bucket >= \(StatsCounter.bucket(for: from)) AND bucket < \(to.timeIntervalSince1970)
            ORDER BY bucket
            """,
            logger: logger
        )
        var counters: [StatsCounter] = []
        for try await (bucket, variant, version, counter, value) in rows.decode((Int, String, String, String, Int).self) {
            counters.append(
                StatsCounter(bucket: bucket, template: TemplateIdentity(name: name, variant: variant, version: version), name: counter, value: value)
            )
        }
        return counters
    }

    // MARK: Idempotency

    public func idempotentResponse(client clientName: String, key: String, now: Date) async throws -> StoredResponse? {
        let rows = try await client.query(
            """
            SELECT fingerprint, status, body, serverTiming, userID FROM idempotentResponse
            WHERE client = \(clientName) AND key = \(key) AND expiresAt > \(now.timeIntervalSince1970) AND status > 0
            """,
            logger: logger
        )
        for try await row in rows.decode(StoredResponseColumns.self) { return Self.storedResponse(row) }
        return nil
    }

    public func claimIdempotencyKey(
        client clientName: String,
        key: String,
        fingerprint: String,
        userID: String?,
        now: Date
    ) async throws -> IdempotencyClaim {
        let now = now.timeIntervalSince1970
        // A claim is a row with status 0 that lapses like any other; a lapsed row (claim or answer) is taken over.
        // The primary key decides between instances claiming at once.
        let claimed = try await client.query(
            """
            INSERT INTO idempotentResponse (client, key, fingerprint, status, body, serverTiming, userID, expiresAt)
            VALUES (\(clientName), \(key), \(fingerprint), 0, '', NULL, \(userID), \(now + claimLease))
            ON CONFLICT (client, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = 0, body = '',
                serverTiming = NULL, userID = excluded.userID, expiresAt = excluded.expiresAt
            WHERE idempotentResponse.expiresAt <= \(now)
            RETURNING 1
            """,
            logger: logger
        )
        for try await _ in claimed.decode(Int.self) { return .claimed }
        let rows = try await client.query(
            "SELECT fingerprint, status, body, serverTiming, userID FROM idempotentResponse WHERE client = \(clientName) AND key = \(key)",
            logger: logger
        )
        for try await row in rows.decode(StoredResponseColumns.self) {
            let stored = Self.storedResponse(row)
            return stored.status > 0 ? .answered(stored) : .running(fingerprint: stored.fingerprint)
        }
        // Released between the two statements: whoever asks again may claim it.
        return .running(fingerprint: fingerprint)
    }

    private typealias StoredResponseColumns = (String, Int, ByteBuffer, String?, String?)

    private static func storedResponse(_ row: StoredResponseColumns) -> StoredResponse {
        StoredResponse(status: row.1, body: Array(buffer: row.2), serverTiming: row.3, fingerprint: row.0, userID: row.4)
    }

    public func keepIdempotentResponse(_ response: StoredResponse, client clientName: String, key: String, expiresAt: Date) async throws {
        try await client.query(
            """
            INSERT INTO idempotentResponse (client, key, fingerprint, status, body, serverTiming, userID, expiresAt)
            VALUES (\(clientName), \(key), \(response.fingerprint), \(response.status), \(ByteBuffer(bytes: response.body)),
                \(response.serverTiming), \(response.userID), \(expiresAt.timeIntervalSince1970))
            ON CONFLICT (client, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
                body = excluded.body, serverTiming = excluded.serverTiming, userID = excluded.userID, expiresAt = excluded.expiresAt
            WHERE idempotentResponse.status = 0
            """,
            logger: logger
        )
    }

    public func releaseIdempotencyKey(client clientName: String, key: String) async throws {
        try await client.query(
            "DELETE FROM idempotentResponse WHERE client = \(clientName) AND key = \(key) AND status = 0",
            logger: logger
        )
    }

    // MARK: User data

    public func exportUser(client clientName: String, userID: String) async throws -> UserExport {
        try await client.withConnection { connection in
            var records: [SessionRow] = []
            let rows = try await connection.query(
                "SELECT \(unescaped: SessionRow.columns) FROM session WHERE ownerKey = \(clientName) AND userID = \(userID) ORDER BY createdAt",
                logger: logger
            )
            for try await row in rows.decode(SessionRow.Columns.self) { records.append(SessionRow(row)) }
            var sessions: [SessionSnapshot] = []
            for record in records { sessions.append(try await snapshot(of: record, on: connection)) }

            var feedback: [ExportedFeedback] = []
            let feedbackRows = try await connection.query(
                """
                SELECT f.sessionId, f.promptId, f.action, f.createdAt FROM feedback f JOIN session s ON s.id = f.sessionId
                WHERE s.ownerKey = \(clientName) AND s.userID = \(userID) ORDER BY f.createdAt
                """,
                logger: logger
            )
            for try await (sessionID, promptID, action, createdAt) in feedbackRows.decode((String, String, String, Double).self) {
                feedback.append(
                    ExportedFeedback(
                        sessionID: sessionID,
                        promptID: promptID,
                        action: try StoredValue.decode(FeedbackAction.self, action),
                        recordedAt: Date(timeIntervalSince1970: createdAt)
                    )
                )
            }
            return UserExport(sessions: sessions, feedback: feedback)
        }
    }

    public func deleteUser(client clientName: String, userID: String) async throws -> DeletedUserData {
        // Rounds, prompts and feedback go with their session (ON DELETE CASCADE); the counts come back in one row.
        let rows = try await client.query(
            """
            WITH owned AS (SELECT id FROM session WHERE ownerKey = \(clientName) AND userID = \(userID)),
            feedbackCount AS (SELECT COUNT(*) AS value FROM feedback WHERE sessionId IN (SELECT id FROM owned)),
            deletedSessions AS (DELETE FROM session WHERE id IN (SELECT id FROM owned) RETURNING 1),
            deletedResponses AS (DELETE FROM idempotentResponse WHERE client = \(clientName) AND userID = \(userID) RETURNING 1)
            SELECT (SELECT COUNT(*) FROM deletedSessions), (SELECT value FROM feedbackCount), (SELECT COUNT(*) FROM deletedResponses)
            """,
            logger: logger
        )
        for try await (sessions, feedback, responses) in rows.decode((Int, Int, Int).self) {
            return DeletedUserData(sessions: sessions, feedback: feedback, idempotencyRecords: responses)
        }
        return DeletedUserData(sessions: 0, feedback: 0, idempotencyRecords: 0)
    }

    // MARK: Expiry

    public func pruneExpiredBatch(now: Date, limit: Int) async throws -> PruneCount {
        let cutoff = now.timeIntervalSince1970
        let count = try await client.withTransaction(logger: logger) { connection in
            // One instance prunes at a time; the others skip this batch rather than queue up to delete nothing.
            let lock = try await connection.query("SELECT pg_try_advisory_xact_lock(\(AdvisoryLockKey.pruning))", logger: logger)
            var acquired = false
            for try await value in lock.decode(Bool.self) { acquired = value }
            guard acquired else { return PruneCount(sessions: 0, cacheEntries: 0) }
            let rows = try await connection.query(
                """
                WITH responses AS (DELETE FROM idempotentResponse WHERE (client, key) IN
                    (SELECT client, key FROM idempotentResponse WHERE expiresAt <= \(cutoff) LIMIT \(limit)) RETURNING 1),
                sessions AS (DELETE FROM session WHERE id IN
                    (SELECT id FROM session WHERE expiresAt <= \(cutoff) LIMIT \(limit)) RETURNING 1),
                entries AS (DELETE FROM cacheEntry WHERE key IN
                    (SELECT key FROM cacheEntry WHERE expiresAt <= \(cutoff) LIMIT \(limit)) RETURNING 1)
                SELECT (SELECT COUNT(*) FROM sessions), (SELECT COUNT(*) FROM entries), (SELECT COUNT(*) FROM responses)
                """,
                logger: logger
            )
            var count = PruneCount(sessions: 0, cacheEntries: 0)
            for try await (sessions, entries, answers) in rows.decode((Int, Int, Int).self) {
                count = PruneCount(sessions: sessions, cacheEntries: entries, idempotentAnswers: answers)
            }
            return count
        }
        memory.removeExpired(now: now)
        return count
    }
}
