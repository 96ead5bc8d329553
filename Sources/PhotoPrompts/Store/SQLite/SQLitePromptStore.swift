import Foundation
import GRDB

/// The ``PromptStore`` on SQLite through GRDB: one file, WAL mode, named migrations.
public struct SQLitePromptStore: PromptStore {
    private let writer: any DatabaseWriter
    /// Session and cache inserts go through here, so concurrent requests share commits.
    private let batcher: WriteBatcher
    private let memory = MemoryCacheLayer()
    private let claimLease: TimeInterval

    /// How long a statement waits for a lock another process holds, in seconds.
    static let busyTimeout: TimeInterval = 0.5

    /// Opens (creating if needed) the database at `path` and migrates it. Refresh slots left reserved by a process
    /// that stopped mid-request come back when their lease (`claimLease`) runs out, as on PostgreSQL.
    public init(path: String, claimLease: TimeInterval = PromptStoreDefaults.claimLease) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            let posix = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? $0.code : nil }
            // Foundation on Linux prefixes its reasons with a sentence that says nothing.
            let reason = posix.map { String(cString: strerror(Int32($0))) }
                ?? (error as NSError).localizedDescription.replacing("The operation could not be completed. ", with: "")
            throw StoreError.folderUnusable(directory.path, reason)
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Another process holding the file's lock (a backup, an operator's sqlite3 shell) makes a write wait this long,
        // then fail as busy, which the client gets as 503 with Retry-After: a request's answer must not wait longer.
        configuration.busyMode = .timeout(SQLitePromptStore.busyTimeout)
        configuration.prepareDatabase { db in
            // In WAL mode NORMAL never corrupts the file and survives a process crash; only an OS crash or power
            // loss can drop the last commits. It spares an fsync per commit, i.e. per new session.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Each write in a group commit runs in its own savepoint, and a statement inside a transaction keeps a
            // statement journal: SQLite copies every page such a statement changes there, first in memory, then
            // past 64 KiB into a temporary file. On a busy service that file took most of the writer's syscalls
            // (about 20 a session). In memory, it is a copy and nothing more; it holds one batch's pages at most.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        // DatabasePool puts the file in WAL mode: readers never wait for the writer.
        try self.init(writer: DatabasePool(path: path, configuration: configuration), claimLease: claimLease)
    }

    /// A store in memory only, for one-off runs such as `photo-prompts generate` that must not touch the service's file.
    public static func inMemory() throws -> SQLitePromptStore {
        try SQLitePromptStore(writer: DatabaseQueue())
    }

    /// Uses `writer` as is; tests pass an in-memory `DatabaseQueue`.
    public init(writer: any DatabaseWriter, claimLease: TimeInterval = PromptStoreDefaults.claimLease) throws {
        self.writer = writer
        self.claimLease = claimLease
        self.batcher = WriteBatcher(writer: writer)
        try Self.migrator.migrate(writer)
    }

    public func cachedPrompts(forKey key: String, now: Date) async throws -> [ValidPrompt]? {
        if let prompts = memory.prompts(forKey: key, now: now) { return prompts }
        let record = try await writer.read { db in
            try CacheEntryRecord.filter(Column("key") == key && Column("expiresAt") > now.timeIntervalSince1970).fetchOne(db)
        }
        guard let record else { return nil }
        memory.store(record.prompts, forKey: key, expiresAt: Date(timeIntervalSince1970: record.expiresAt))
        return record.prompts
    }

    public func cachePrompts(_ prompts: [ValidPrompt], forKey key: String, expiresAt: Date) async throws {
        let row = CacheEntryRow(CacheEntry(key: key, prompts: prompts, expiresAt: expiresAt), at: Date())
        memory.store(prompts, forKey: key, expiresAt: expiresAt)
        try await batcher.write { db in try row.upsert(into: db) }
    }

    public func createSession(_ session: NewSession, caching entry: CacheEntry?) async throws {
        let row = SessionRows(session)
        let cached = entry.map { CacheEntryRow($0, at: Date()) }
        if let entry { memory.store(entry.prompts, forKey: entry.key, expiresAt: entry.expiresAt) }
        try await batcher.write { db in
            try row.insert(into: db)
            try cached?.upsert(into: db)
        }
    }

    public func session(id: String, now: Date) async throws -> SessionSnapshot? {
        try await writer.read { db in
            guard let record = try SessionRecord.filter(key: id).filter(Column("expiresAt") > now.timeIntervalSince1970).fetchOne(db)
            else { return nil }
            return try Self.snapshot(of: record, db: db)
        }
    }

    private static func snapshot(of record: SessionRecord, db: Database) throws -> SessionSnapshot {
        let rounds = try SessionRoundRecord.filter(Column("sessionId") == record.id).order(Column("round")).fetchAll(db)
        let prompts = try SessionPromptRecord.filter(Column("sessionId") == record.id).order(Column("round"), Column("position")).fetchAll(db)
        let promptsByRound = Dictionary(grouping: prompts, by: \.round)
        return try record.snapshot(rounds: rounds.map { try $0.round(prompts: promptsByRound[$0.round] ?? []) })
    }

    public func exportUser(client: String, userID: String) async throws -> UserExport {
        try await writer.read { db in
            let records = try SessionRecord.filter(Column("ownerKey") == client && Column("userID") == userID).order(Column("createdAt")).fetchAll(db)
            let feedback = try Row.fetchAll(
                db,
                sql: """
                    SELECT f.sessionId, f.promptId, f.action, f.createdAt FROM feedback f JOIN session s ON s.id = f.sessionId
                    WHERE s.ownerKey = ? AND s.userID = ? ORDER BY f.createdAt
                    """,
                arguments: [client, userID]
            )
            return UserExport(
                sessions: try records.map { try Self.snapshot(of: $0, db: db) },
                feedback: try feedback.map { row in
                    ExportedFeedback(
                        sessionID: row["sessionId"],
                        promptID: row["promptId"],
                        action: try StoredValue.decode(FeedbackAction.self, row["action"]),
                        recordedAt: Date(timeIntervalSince1970: row["createdAt"])
                    )
                }
            )
        }
    }

    public func deleteUser(client: String, userID: String) async throws -> DeletedUserData {
        try await writer.write { db in
            let owned = "SELECT id FROM session WHERE ownerKey = ? AND userID = ?"
            let feedback = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feedback WHERE sessionId IN (\(owned))", arguments: [client, userID]) ?? 0
            // Rounds, prompts and feedback go with their session (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM session WHERE ownerKey = ? AND userID = ?", arguments: [client, userID])
            let sessions = db.changesCount
            try db.execute(sql: "DELETE FROM idempotentResponse WHERE client = ? AND userID = ?", arguments: [client, userID])
            return DeletedUserData(sessions: sessions, feedback: feedback, idempotencyRecords: db.changesCount)
        }
    }

    public func reserveRefresh(sessionID: String, limit: Int, now: Date, caller: Caller) async throws -> RefreshReservation {
        try await writer.write { db in
            // Ownership is part of both statements, so another client's refresh can neither use a slot nor learn
            // that the session exists.
            let owned = "id = :id AND expiresAt > :now AND ownerKey = :client AND (userID IS NULL OR userID IS :user)"
            // Reservations whose lease ran out belong to requests that died; they no longer hold a slot.
            let livePending = "CASE WHEN pendingUntil > :now THEN refreshesPending ELSE 0 END"
            let arguments: StatementArguments = [
                "id": sessionID, "now": now.timeIntervalSince1970, "client": caller.client, "user": caller.userID,
                "limit": limit, "until": now.timeIntervalSince1970 + claimLease,
            ]
            // The whole limit is this one conditional UPDATE: concurrent callers cannot all read "4 used" and pass.
            try db.execute(
                sql: """
                    UPDATE session SET refreshesPending = \(livePending) + 1, pendingUntil = :until
                    WHERE \(owned) AND refreshesUsed + \(livePending) < :limit
                    """,
                arguments: arguments
            )
            let reserved = db.changesCount == 1
            let row = try Row.fetchOne(
                db,
                sql: "SELECT refreshesUsed, \(livePending) AS pending FROM session WHERE \(owned)",
                arguments: arguments
            )
            guard let row else { return .notFound }
            let used: Int = row["refreshesUsed"]
            let pending: Int = row["pending"]
            return reserved ? .reserved(ordinal: used + pending) : .limitReached(refreshesUsed: min(limit, used + pending))
        }
    }

    public func commitRefresh(sessionID: String, now: Date, choose: @Sendable (Set<String>) -> RoundDraft) async throws -> CommittedRound {
        try await writer.write { db in
            guard let record = try SessionRecord.fetchOne(db, key: sessionID) else { throw StoreError.sessionVanished }
            let shown = try String.fetchSet(db, sql: "SELECT repeatKey FROM sessionPrompt WHERE sessionId = ?", arguments: [sessionID])
            let draft = choose(shown)
            let counts = draft.source != .fallback
            // A fallback round leaves the surplus as it was: it showed none of it.
            let surplus = counts ? draft.surplus : record.surplus
            try db.execute(
                sql: """
                    UPDATE session SET refreshesUsed = refreshesUsed + ?, refreshesPending = MAX(refreshesPending - 1, 0),
                    nextRound = nextRound + 1, surplus = ? WHERE id = ?
                    """,
                arguments: [counts ? 1 : 0, ValidPrompt.jsonColumn(surplus), sessionID]
            )
            try RoundRows(draft, round: record.nextRound, counted: counts, sessionID: sessionID, at: now).insert(into: db)
            return CommittedRound(draft: draft, refreshesUsed: record.refreshesUsed + (counts ? 1 : 0))
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
            guard
                let session = try SessionRecord.filter(key: feedback.sessionID)
                    .filter(Column("expiresAt") > feedback.at.timeIntervalSince1970).fetchOne(db),
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
                return .recorded(.repeated(feedback, recordedAt: Date(timeIntervalSince1970: existing.createdAt), template: template))
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
            return .recorded(.new(feedback, hadSelection: hadSelection, template: template))
        }
    }

    public func addStats(_ counters: [StatsCounter]) async throws {
        try await batcher.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO templateStats (bucket, template, variant, version, counter, value) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (template, bucket, variant, version, counter) DO UPDATE SET value = value + excluded.value
                    """
            )
            for counter in counters {
                try statement.execute(arguments: [
                    counter.bucket, counter.template.name, counter.template.variant, counter.template.version, counter.name, counter.value,
                ])
            }
        }
    }

    public func stats(template name: String, from: Date, to: Date) async throws -> [StatsCounter] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT bucket, variant, version, counter, value FROM templateStats
                    WHERE template = ? AND bucket >= ? AND bucket < ? ORDER BY bucket
                    """,
                arguments: [name, StatsCounter.bucket(for: from), to.timeIntervalSince1970]
            )
            return rows.map { row in
                StatsCounter(
                    bucket: row["bucket"],
                    template: TemplateIdentity(name: name, variant: row["variant"], version: row["version"]),
                    name: row["counter"],
                    value: row["value"]
                )
            }
        }
    }

    public func idempotentResponse(client: String, key: String, now: Date) async throws -> StoredResponse? {
        try await writer.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT fingerprint, status, body, serverTiming, userID FROM idempotentResponse
                    WHERE client = ? AND key = ? AND expiresAt > ? AND status > 0
                    """,
                arguments: [client, key, now.timeIntervalSince1970]
            )
            return row.map(Self.storedResponse)
        }
    }

    public func claimIdempotencyKey(client: String, key: String, fingerprint: String, userID: String?, now: Date) async throws -> IdempotencyClaim {
        try await writer.write { db in
            // A claim is a row with status 0 that lapses like any other; a lapsed row (claim or answer) is taken over.
            try db.execute(
                sql: """
                    INSERT INTO idempotentResponse (client, key, fingerprint, status, body, serverTiming, userID, expiresAt)
                    VALUES (:client, :key, :fingerprint, 0, x'', NULL, :user, :until)
                    ON CONFLICT (client, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = 0, body = x'',
                        serverTiming = NULL, userID = excluded.userID, expiresAt = excluded.expiresAt
                    WHERE idempotentResponse.expiresAt <= :now
                    """,
                arguments: [
                    "client": client, "key": key, "fingerprint": fingerprint, "user": userID, "now": now.timeIntervalSince1970,
                    "until": now.timeIntervalSince1970 + claimLease,
                ]
            )
            if db.changesCount == 1 { return .claimed }
            let row = try Row.fetchOne(
                db,
                sql: "SELECT fingerprint, status, body, serverTiming, userID FROM idempotentResponse WHERE client = ? AND key = ?",
                arguments: [client, key]
            )
            guard let row else { return .running(fingerprint: fingerprint) }
            let stored = Self.storedResponse(row)
            return stored.status > 0 ? .answered(stored) : .running(fingerprint: stored.fingerprint)
        }
    }

    private static func storedResponse(_ row: Row) -> StoredResponse {
        StoredResponse(
            status: row["status"],
            body: [UInt8](row["body"] as Data),
            serverTiming: row["serverTiming"],
            fingerprint: row["fingerprint"],
            userID: row["userID"]
        )
    }

    public func keepIdempotentResponse(_ response: StoredResponse, client: String, key: String, expiresAt: Date) async throws {
        try await batcher.write { db in
            try db.execute(
                sql: """
                    INSERT INTO idempotentResponse (client, key, fingerprint, status, body, serverTiming, userID, expiresAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (client, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
                        body = excluded.body, serverTiming = excluded.serverTiming, userID = excluded.userID, expiresAt = excluded.expiresAt
                    WHERE idempotentResponse.status = 0
                    """,
                arguments: [
                    client, key, response.fingerprint, response.status, Data(response.body), response.serverTiming, response.userID,
                    expiresAt.timeIntervalSince1970,
                ]
            )
        }
    }

    public func releaseIdempotencyKey(client: String, key: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM idempotentResponse WHERE client = ? AND key = ? AND status = 0", arguments: [client, key])
        }
    }

    /// Checkpoints the WAL and closes every connection; called once at shutdown, after the last request.
    public func close() async throws {
        // Copies every committed page into the main file and empties the WAL, so the file alone is the database.
        try await writer.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
        }
        try writer.close()
    }

    public func ping() async throws {
        _ = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session WHERE rowid = 0") }
    }

    public func pruneExpiredBatch(now: Date, limit: Int) async throws -> PruneCount {
        let count = try await writer.write { db in
            let arguments: StatementArguments = [now.timeIntervalSince1970, limit]
            try db.execute(
                sql: """
                    DELETE FROM idempotentResponse WHERE (client, key) IN
                        (SELECT client, key FROM idempotentResponse WHERE expiresAt <= ? LIMIT ?)
                    """,
                arguments: arguments
            )
            let answers = db.changesCount
            try db.execute(sql: "DELETE FROM session WHERE id IN (SELECT id FROM session WHERE expiresAt <= ? LIMIT ?)", arguments: arguments)
            let sessions = db.changesCount
            try db.execute(sql: "DELETE FROM cacheEntry WHERE key IN (SELECT key FROM cacheEntry WHERE expiresAt <= ? LIMIT ?)", arguments: arguments)
            return PruneCount(sessions: sessions, cacheEntries: db.changesCount, idempotentAnswers: answers)
        }
        memory.removeExpired(now: now)
        return count
    }
}
