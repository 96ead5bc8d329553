import Foundation
import GRDB
import PromptDomain

/// Sessions and feedback on their prompts (``SessionStore``; refresh slots and turns in `+Refresh`), in SQLite.
extension SQLitePromptStore {
    public func createSession(_ session: SessionSnapshot, historyUntil: Date?, caching entry: CacheEntry?) async throws {
        let row = SessionColumns(session)
        let firstRound = RoundRows(firstOf: session)
        let cached = entry.map { CacheEntryRow($0, at: session.createdAt) }
        let history = HistoryRows(firstOf: session, until: historyUntil)
        try await batcher.write { db in
            try row.insert(into: db)
            try firstRound.insert(into: db)
            try history?.insert(into: db)
            try cached?.upsert(into: db)
        }
    }

    public func session(id: String, now: Date) async throws -> SessionSnapshot? {
        try await writer.read { db in try Self.session(id: id, now: now, db: db) }
    }

    /// The session with its rounds, unless it is unknown or expired at `now`, inside the caller's transaction.
    package static func session(id: String, now: Date, db: Database) throws -> SessionSnapshot? {
        let sql = "SELECT \(SessionColumns.names) FROM session WHERE id = ? AND expiresAt > ?"
        guard let row = try SessionColumns.fetchOne(db, sql: sql, arguments: [id, now.timeIntervalSince1970]) else { return nil }
        return try snapshot(of: row, db: db)
    }

    package static func snapshot(of record: SessionColumns, db: Database) throws -> SessionSnapshot {
        let roundsSQL = "SELECT \(SessionColumns.roundNames) FROM sessionRound WHERE sessionId = ? ORDER BY round"
        let promptsSQL = "SELECT \(SessionColumns.promptNames) FROM sessionPrompt WHERE sessionId = ? ORDER BY round, position"
        return try record.snapshot(
            rounds: Row.fetchAll(db, sql: roundsSQL, arguments: [record.id]).map { ($0[0], $0[1], $0[2], $0[3], $0[4], $0[5], $0[6]) },
            prompts: Row.fetchAll(db, sql: promptsSQL, arguments: [record.id]).map { ($0[0], $0[1], $0[2], $0[3], $0[4], $0[5]) }
        )
    }

    public func recordFeedback(_ feedback: Feedback) async throws -> FeedbackOutcome {
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

extension SessionColumns: FetchableRecord {
    /// A row selected as ``SessionColumns/names``.
    package init(row: Row) throws {
        self.init((row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[11]))
    }
}

/// A row of `feedback`: one action on one prompt, at most once.
private struct FeedbackRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "feedback"

    var promptId: String
    var action: String
    var sessionId: String
    var createdAt: Double
}
