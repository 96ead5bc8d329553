import Foundation
import GRDB
import PromptDomain

/// Hourly counters per template version and language (``StatsStore``), in SQLite.
extension SQLitePromptStore {
    public func addStats(_ counters: [StatsCounter]) async throws {
        try await batcher.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO templateStats (bucket, template, variant, version, language, counter, value) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (template, bucket, variant, version, language, counter) DO UPDATE SET value = value + excluded.value
                    """
            )
            let daily = try db.cachedStatement(
                sql: """
                    INSERT INTO templateStatsDaily (day, template, variant, version, language, counter, value) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (template, day, variant, version, language, counter) DO UPDATE SET value = value + excluded.value
                    """
            )
            for counter in counters {
                let values: [any DatabaseValueConvertible] = [
                    counter.template.name, counter.template.variant, counter.template.version, counter.language, counter.name, counter.value,
                ]
                try statement.execute(arguments: StatementArguments([counter.bucket] + values))
                try daily.execute(arguments: StatementArguments([counter.bucket - counter.bucket % 86_400] + values))
            }
        }
    }

    public func stats(_ query: StatsQuery) async throws -> [StatsCounter] {
        try await writer.read { db in
            // `all` sums every language into one, reported as "".
            let (table, time) = query.resolution == .day ? ("templateStatsDaily", "day") : ("templateStats", "bucket")
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(time) - \(time) % ? AS start, variant, version, CASE WHEN ? = 'all' THEN '' ELSE language END AS lang,
                        counter, SUM(value) AS total
                    FROM \(table)
                    WHERE template = ? AND \(time) >= ? AND \(time) < ? AND (? != 'one' OR language = ?)
                    GROUP BY start, variant, version, lang, counter ORDER BY start
                    """,
                arguments: [
                    query.bucketSeconds, query.languages.mode, query.template, query.firstBucket, query.to.timeIntervalSince1970,
                    query.languages.mode, query.languages.tag,
                ]
            )
            return rows.map { row in
                StatsCounter(
                    bucket: row["start"],
                    template: TemplateIdentity(name: query.template, variant: row["variant"], version: row["version"]),
                    language: row["lang"],
                    name: row["counter"],
                    value: row["total"]
                )
            }
        }
    }

    public func versionSpans(template name: String) async throws -> [VersionSpan] {
        try await writer.read { db in
            let sql = """
                SELECT variant, version, MIN(bucket), MAX(bucket),
                    SUM(CASE WHEN counter = 'requests' THEN value ELSE 0 END), SUM(CASE WHEN counter = 'sessions' THEN value ELSE 0 END)
                FROM templateStats WHERE template = ? AND counter IN ('requests', 'sessions')
                GROUP BY variant, version ORDER BY MIN(bucket), variant
                """
            return try Row.fetchAll(db, sql: sql, arguments: [name]).map { row in
                VersionSpan(
                    template: TemplateIdentity(name: name, variant: row[0], version: row[1]),
                    firstBucket: row[2],
                    lastBucket: row[3],
                    requests: row[4],
                    sessions: row[5]
                )
            }
        }
    }
}
