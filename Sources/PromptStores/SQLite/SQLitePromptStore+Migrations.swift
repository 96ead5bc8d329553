import Foundation
import GRDB
import PromptDomain

extension SQLitePromptStore {
    /// The schema's history. Never edit a shipped migration: add `v2`, `v3`… instead.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "session") { t in
                t.primaryKey("id", .text)
                t.column("userID", .text)
                t.column("locale", .text).notNull()
                t.column("photo", .jsonText).notNull()
                t.column("templateName", .text).notNull()
                t.column("templateVersion", .text).notNull()
                t.column("refreshesUsed", .integer).notNull().defaults(to: 0)
                // Refreshes reserved but not yet committed or released; they hold a slot of the limit.
                t.column("refreshesPending", .integer).notNull().defaults(to: 0)
                t.column("nextRound", .integer).notNull().defaults(to: 1)
                t.column("createdAt", .double).notNull()
                t.column("expiresAt", .double).notNull().indexed()
            }
            try db.create(table: "sessionRound") { t in
                t.belongsTo("session", onDelete: .cascade).notNull()
                t.column("round", .integer).notNull()
                t.column("source", .text).notNull()
                t.column("fallbackReason", .text)
                t.column("counted", .boolean).notNull()
                t.column("createdAt", .double).notNull()
                t.primaryKey(["sessionId", "round"])
            }
            try db.create(table: "sessionPrompt") { t in
                t.primaryKey("id", .text)
                t.belongsTo("session", onDelete: .cascade).notNull()
                t.column("round", .integer).notNull()
                t.column("position", .integer).notNull()
                t.column("text", .text).notNull()
                t.column("repeatKey", .text).notNull()
                t.column("wordCount", .integer).notNull()
                t.column("source", .text).notNull()
            }
            try db.create(table: "cacheEntry") { t in
                t.primaryKey("key", .text)
                t.column("prompts", .jsonText).notNull()
                t.column("createdAt", .double).notNull()
                t.column("expiresAt", .double).notNull().indexed()
            }
        }
        migrator.registerMigration("v2") { db in
            // Valid prompts the model wrote beyond the three shown: the next refresh is served from them.
            try db.alter(table: "session") { t in
                t.add(column: "surplus", .jsonText).notNull().defaults(to: "[]")
            }
            try db.alter(table: "sessionRound") { t in
                t.add(column: "answeredBy", .jsonText)
            }
        }
        migrator.registerMigration("v3") { db in
            // A/B variants, and which version rendered each round, so feedback and stats are per version.
            try db.alter(table: "session") { t in
                t.add(column: "templateVariant", .text)
            }
            try db.alter(table: "sessionRound") { t in
                t.add(column: "templateVersion", .text)
            }
            try db.create(table: "feedback") { t in
                t.column("promptId", .text).notNull()
                t.column("action", .text).notNull()
                t.belongsTo("session", onDelete: .cascade).notNull()
                t.column("createdAt", .double).notNull()
                // The key makes a repeated tap a no-op, however many arrive at once.
                t.primaryKey(["promptId", "action"])
            }
            // Hourly counters per template version; unlike sessions they are not pruned, so operators can compare
            // versions over weeks. They hold counts only, nothing about a user.
            try db.create(table: "templateStats", options: .withoutRowID) { t in
                t.column("bucket", .integer).notNull()
                t.column("template", .text).notNull()
                t.column("variant", .text).notNull()
                t.column("version", .text).notNull()
                t.column("counter", .text).notNull()
                t.column("value", .integer).notNull()
                t.primaryKey(["template", "bucket", "variant", "version", "counter"])
            }
        }
        migrator.registerMigration("v4") { db in
            // The client key that created the session: only it (and the same user) may read or refresh it.
            try db.alter(table: "session") { t in
                t.add(column: "ownerKey", .text).notNull().defaults(to: Caller.openClient)
            }
            // Answers kept under an Idempotency-Key, per client key, for 24 hours.
            try db.create(table: "idempotentResponse") { t in
                t.column("client", .text).notNull()
                t.column("key", .text).notNull()
                t.column("fingerprint", .text).notNull()
                t.column("status", .integer).notNull()
                t.column("body", .blob).notNull()
                t.column("serverTiming", .text)
                // The app's user, so deleting a user's data removes their replays too.
                t.column("userID", .text).indexed()
                t.column("expiresAt", .double).notNull().indexed()
                t.primaryKey(["client", "key"])
            }
        }
        migrator.registerMigration("v5") { db in
            // When the newest refresh reservation lapses. Pending slots count only until then, so a slot held by a
            // process that died mid-refresh comes back by itself, even where other processes share the database.
            try db.alter(table: "session") { t in
                t.add(column: "pendingUntil", .double).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v6") { db in
            // Whose turn it is to refresh the session, and until when: refreshes of one session take turns across
            // every process sharing the database, so each sees the prompts the one before it showed.
            try db.alter(table: "session") { t in
                t.add(column: "turnHolder", .text)
                t.add(column: "turnUntil", .double).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v7") { db in
            // What each user was shown, for `PROMPT_HISTORY_DAYS`, one row per answer: a hash of each prompt's repeat
            // key and its near-duplicate signature, never its text. Read newest first per user; pruned by expiry.
            try db.create(table: "promptHistory") { t in
                t.column("ownerKey", .text).notNull()
                t.column("userID", .text).notNull()
                t.column("keys", .text).notNull()
                t.column("signatures", .text).notNull()
                t.column("shownAt", .double).notNull()
                t.column("expiresAt", .double).notNull().indexed()
            }
            try db.create(index: "promptHistory_user", on: "promptHistory", columns: ["ownerKey", "userID", "shownAt"])
        }
        migrator.registerMigration("v8") { db in
            // The console: stats per language (the key gains `language`, so the table is rebuilt; old counts get '')
            // and per UTC day (a year is 365 rows, not 8760; language `*` sums them all), versions' files, eval runs.
            // WITHOUT ROWID makes a range of a template's hours one sequential read of the key, values included; the
            // second index holds each version's days in order, so a whole range sums per language without a sort.
            try db.execute(
                sql: """
                    CREATE TABLE templateStatsByLanguage (
                        bucket INTEGER NOT NULL, template TEXT NOT NULL, variant TEXT NOT NULL, version TEXT NOT NULL,
                        language TEXT NOT NULL, counter TEXT NOT NULL, value INTEGER NOT NULL,
                        PRIMARY KEY (template, bucket, variant, version, language, counter)) WITHOUT ROWID;
                    INSERT INTO templateStatsByLanguage SELECT bucket, template, variant, version, '', counter, value FROM templateStats;
                    DROP TABLE templateStats;
                    ALTER TABLE templateStatsByLanguage RENAME TO templateStats;
                    CREATE TABLE templateStatsDaily (
                        day INTEGER NOT NULL, template TEXT NOT NULL, variant TEXT NOT NULL, version TEXT NOT NULL,
                        language TEXT NOT NULL, counter TEXT NOT NULL, value INTEGER NOT NULL,
                        PRIMARY KEY (template, day, variant, version, language, counter)) WITHOUT ROWID;
                    CREATE INDEX templateStatsDaily_byVersion ON templateStatsDaily (template, variant, version, language, counter, day, value);
                    INSERT INTO templateStatsDaily
                        SELECT bucket - bucket % 86400, template, variant, version, language, counter, SUM(value) FROM templateStats
                        GROUP BY 1, 2, 3, 4, 5, 6;
                    INSERT INTO templateStatsDaily
                        SELECT bucket - bucket % 86400, template, variant, version, '*', counter, SUM(value) FROM templateStats
                        GROUP BY 1, 2, 3, 4, 6;
                    """
            )
            try db.create(table: "templateVersion") { t in
                t.column("template", .text).notNull()
                t.column("variant", .text).notNull()
                t.column("version", .text).notNull()
                t.column("files", .text).notNull()
                t.column("firstSeen", .double).notNull()
                t.primaryKey(["template", "variant", "version"])
            }
            try db.create(table: "evalRun") { t in
                t.primaryKey("id", .text)
                t.column("createdAt", .double).notNull().indexed()
                t.column("report", .text).notNull()
            }
        }
        migrator.registerMigration("v9") { db in
            // The history's prompts in one binary column (``HistoryRows``): reading a user's answers parses no text.
            // Rows written before are packed from their hex columns, so nobody meets a prompt again for the upgrade.
            try db.alter(table: "promptHistory") { t in t.add(column: "prompts", .blob).notNull().defaults(to: Data()) }
            for row in try Row.fetchAll(db, sql: "SELECT rowid, keys, signatures FROM promptHistory") {
                let packed = HistoryRows.packed(hexKeys: row["keys"], hexSignatures: row["signatures"])
                try db.execute(sql: "UPDATE promptHistory SET prompts = ? WHERE rowid = ?", arguments: [packed, row["rowid"]])
            }
            try db.alter(table: "promptHistory") { t in
                t.drop(column: "keys")
                t.drop(column: "signatures")
            }
        }
        return migrator
    }
}

extension HistoryRows {
    /// The binary column for an entry written before `v9`: comma-separated keys of 16 hex digits, and signatures of
    /// 8 hex digits per term. It is the same bytes: only the terms' count is added. PostgreSQL's `v9` does this in SQL.
    static func packed(hexKeys: String, hexSignatures: String) -> Data {
        func bytes(_ hex: Substring) -> [UInt8] {
            let digits = Array(hex.utf8)
            return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) }
        }
        let signatures = hexSignatures.split(separator: ",", omittingEmptySubsequences: false)
        var packed: [UInt8] = []
        for (index, key) in hexKeys.split(separator: ",").enumerated() {
            let terms = index < signatures.count ? bytes(signatures[index]) : []
            packed += bytes(key) + [UInt8(terms.count / 4)] + terms
        }
        return Data(packed)
    }
}
