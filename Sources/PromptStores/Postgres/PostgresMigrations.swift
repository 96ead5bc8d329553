import Logging
import PostgresNIO

/// The PostgreSQL schema's history, under the same names as ``SQLitePromptStore``'s migrations (`v1`…`v9`), each
/// making the same change in PostgreSQL's dialect. Never edit a shipped migration: add the next one to both stores.
///
/// Names stay unquoted, so PostgreSQL folds them to lower case (`refreshesUsed` is the column `refreshesused`);
/// every statement here and in ``PostgresPromptStore`` writes them the same unquoted way. Times are seconds since
/// 1970 as `double precision` and JSON is `text`, as in SQLite, so both stores share their records' meaning.
package enum PostgresMigrations {
    /// Each migration's name and statements, oldest first.
    package static let all: [(name: String, statements: [PostgresQuery])] = [
        ("v1", [
            """
            CREATE TABLE session (
                id text PRIMARY KEY, userID text, locale text NOT NULL, photo text NOT NULL,
                templateName text NOT NULL, templateVersion text NOT NULL,
                refreshesUsed bigint NOT NULL DEFAULT 0, refreshesPending bigint NOT NULL DEFAULT 0,
                nextRound bigint NOT NULL DEFAULT 1,
                createdAt double precision NOT NULL, expiresAt double precision NOT NULL)
            """,
            "CREATE INDEX session_on_expiresAt ON session (expiresAt)",
            """
            CREATE TABLE sessionRound (
                sessionId text NOT NULL REFERENCES session (id) ON DELETE CASCADE, round bigint NOT NULL,
                source text NOT NULL, fallbackReason text, counted boolean NOT NULL,
                createdAt double precision NOT NULL, PRIMARY KEY (sessionId, round))
            """,
            """
            CREATE TABLE sessionPrompt (
                id text PRIMARY KEY, sessionId text NOT NULL REFERENCES session (id) ON DELETE CASCADE,
                round bigint NOT NULL, position bigint NOT NULL, text text NOT NULL, repeatKey text NOT NULL,
                wordCount bigint NOT NULL, source text NOT NULL)
            """,
            "CREATE INDEX sessionPrompt_on_sessionId ON sessionPrompt (sessionId)",
            """
            CREATE TABLE cacheEntry (
                key text PRIMARY KEY, prompts text NOT NULL,
                createdAt double precision NOT NULL, expiresAt double precision NOT NULL)
            """,
            "CREATE INDEX cacheEntry_on_expiresAt ON cacheEntry (expiresAt)",
        ]),
        ("v2", [
            "ALTER TABLE session ADD COLUMN surplus text NOT NULL DEFAULT '[]'",
            "ALTER TABLE sessionRound ADD COLUMN answeredBy text",
        ]),
        ("v3", [
            "ALTER TABLE session ADD COLUMN templateVariant text",
            "ALTER TABLE sessionRound ADD COLUMN templateVersion text",
            """
            CREATE TABLE feedback (
                promptId text NOT NULL, action text NOT NULL,
                sessionId text NOT NULL REFERENCES session (id) ON DELETE CASCADE,
                createdAt double precision NOT NULL, PRIMARY KEY (promptId, action))
            """,
            "CREATE INDEX feedback_on_sessionId ON feedback (sessionId)",
            """
            CREATE TABLE templateStats (
                bucket bigint NOT NULL, template text NOT NULL, variant text NOT NULL, version text NOT NULL,
                counter text NOT NULL, value bigint NOT NULL,
                PRIMARY KEY (template, bucket, variant, version, counter))
            """,
        ]),
        ("v4", [
            // `-` is Caller.openClient: sessions made before client keys existed belong to the open client.
            "ALTER TABLE session ADD COLUMN ownerKey text NOT NULL DEFAULT '-'",
            "CREATE INDEX session_on_ownerKey_userID ON session (ownerKey, userID)",
            """
            CREATE TABLE idempotentResponse (
                client text NOT NULL, key text NOT NULL, fingerprint text NOT NULL, status bigint NOT NULL,
                body bytea NOT NULL, serverTiming text, userID text, expiresAt double precision NOT NULL,
                PRIMARY KEY (client, key))
            """,
            "CREATE INDEX idempotentResponse_on_userID ON idempotentResponse (userID)",
            "CREATE INDEX idempotentResponse_on_expiresAt ON idempotentResponse (expiresAt)",
        ]),
        ("v5", [
            "ALTER TABLE session ADD COLUMN pendingUntil double precision NOT NULL DEFAULT 0"
        ]),
        ("v6", [
            "ALTER TABLE session ADD COLUMN turnHolder text",
            "ALTER TABLE session ADD COLUMN turnUntil double precision NOT NULL DEFAULT 0",
        ]),
        ("v7", [
            """
            CREATE TABLE promptHistory (ownerKey text NOT NULL, userID text NOT NULL, keys text NOT NULL, signatures text NOT NULL,
                shownAt double precision NOT NULL, expiresAt double precision NOT NULL)
            """,
            "CREATE INDEX promptHistory_user ON promptHistory (ownerKey, userID, shownAt)",
            "CREATE INDEX promptHistory_expiresAt ON promptHistory (expiresAt)",
        ]),
        ("v8", [
            """
            CREATE TABLE templateStatsByLanguage (
                bucket bigint NOT NULL, template text NOT NULL, variant text NOT NULL, version text NOT NULL,
                language text NOT NULL, counter text NOT NULL, value bigint NOT NULL,
                PRIMARY KEY (template, bucket, variant, version, language, counter) INCLUDE (value))
            """,
            "INSERT INTO templateStatsByLanguage SELECT bucket, template, variant, version, '', counter, value FROM templateStats",
            "DROP TABLE templateStats",
            "ALTER TABLE templateStatsByLanguage RENAME TO templateStats",
            """
            CREATE TABLE templateStatsDaily (
                day bigint NOT NULL, template text NOT NULL, variant text NOT NULL, version text NOT NULL,
                language text NOT NULL, counter text NOT NULL, value bigint NOT NULL,
                PRIMARY KEY (template, day, variant, version, language, counter) INCLUDE (value))
            """,
            """
            INSERT INTO templateStatsDaily
            SELECT bucket - bucket % 86400, template, variant, version, language, counter, SUM(value) FROM templateStats
            GROUP BY 1, 2, 3, 4, 5, 6
            """,
            """
            INSERT INTO templateStatsDaily
            SELECT bucket - bucket % 86400, template, variant, version, '*', counter, SUM(value) FROM templateStats
            GROUP BY 1, 2, 3, 4, 6
            """,
            """
            CREATE TABLE templateVersion (template text NOT NULL, variant text NOT NULL, version text NOT NULL, files text NOT NULL,
                firstSeen double precision NOT NULL, PRIMARY KEY (template, variant, version))
            """,
            "CREATE TABLE evalRun (id text PRIMARY KEY, createdAt double precision NOT NULL, report text NOT NULL)",
            "CREATE INDEX evalRun_on_createdAt ON evalRun (createdAt)",
        ]),
        ("v9", [
            "ALTER TABLE promptHistory ADD COLUMN prompts bytea NOT NULL DEFAULT ''::bytea",
            // Each prompt: its key's 8 bytes, its terms' count in one byte, its terms: the hex columns' bytes.
            """
            UPDATE promptHistory h SET prompts = COALESCE((
                SELECT string_agg(decode(p.k, 'hex') || set_byte('\\000'::bytea, 0, length(p.s) / 8) || decode(p.s, 'hex'), ''::bytea
                    ORDER BY p.i)
                FROM unnest(string_to_array(h.keys, ','), string_to_array(h.signatures, ',')) WITH ORDINALITY AS p (k, s, i)
            ), ''::bytea)
            """,
            "ALTER TABLE promptHistory DROP COLUMN keys, DROP COLUMN signatures",
        ]),
    ]

    /// Applies every migration not yet applied, in one transaction under an advisory lock: instances starting
    /// together queue here, and each later one finds the work done. PostgreSQL's DDL is transactional, so a
    /// failed migration leaves nothing half-made.
    ///
    /// - Returns: the names applied by this call.
    @discardableResult
    package static func migrate(_ client: PostgresClient, logger: Logger) async throws -> [String] {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(AdvisoryLockKey.migrations))", logger: logger)
            // The applied names live in the table GRDB uses for SQLite, so both stores answer "which migrations ran?" alike.
            try await connection.query("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier text NOT NULL PRIMARY KEY)", logger: logger)
            let names = try await connection.query("SELECT identifier FROM grdb_migrations", logger: logger).decode(String.self)
            let applied = try await names.reduce(into: Set<String>()) { $0.insert($1) }
            var newlyApplied: [String] = []
            for migration in all where !applied.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.query(statement, logger: logger)
                }
                try await connection.query("INSERT INTO grdb_migrations (identifier) VALUES (\(migration.name))", logger: logger)
                newlyApplied.append(migration.name)
            }
            return newlyApplied
        }
    }
}

/// The keys of the advisory locks the instances sharing one database take, one per job only one may do at a time.
package enum AdvisoryLockKey {
    /// Held while migrating, for the whole transaction.
    package static let migrations: Int64 = 0x5048_5052_0001
    /// Held while pruning; an instance that cannot take it skips the round.
    package static let pruning: Int64 = 0x5048_5052_0002
}
