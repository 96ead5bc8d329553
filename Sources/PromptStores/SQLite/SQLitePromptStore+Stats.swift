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
                let template: [any DatabaseValueConvertible] = [counter.template.name, counter.template.variant, counter.template.version]
                let day = counter.bucket - counter.bucket % 86_400
                try statement.execute(arguments: StatementArguments([counter.bucket] + template + [counter.language, counter.name, counter.value]))
                try daily.execute(arguments: StatementArguments([day] + template + [counter.language, counter.name, counter.value]))
                try daily.execute(arguments: StatementArguments([day] + template + [LanguageSelection.everyLanguage, counter.name, counter.value]))
            }
        }
    }

    public func stats(_ query: StatsQuery) async throws -> [StatsCounter] {
        try await writer.read { db in
            let (shape, language) = (query.sqlShape, query.languageFilter)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(shape.start) AS start, variant, version, \(shape.language) AS lang, counter, SUM(value) AS total
                    FROM \(shape.table)
                    WHERE template = ? AND \(shape.time) >= ? AND \(shape.time) < ? AND language \(language.comparison) ?
                    GROUP BY \(shape.groupBy) ORDER BY start
                    """,
                arguments: [query.template, query.firstBucket, query.to.timeIntervalSince1970, language.value]
            )
            return rows.map { query.counter(($0[0], $0[1], $0[2], $0[3], $0[4], $0[5])) }
        }
    }

    public func versionSpans(template name: String) async throws -> [VersionSpan] {
        try await writer.read { db in
            // Days and totals from the daily sums; first and last hours from those two days, never a year of hours.
            let days = try Row.fetchAll(
                db,
                sql: """
                    SELECT variant, version, MIN(day), MAX(day),
                        SUM(CASE WHEN counter = 'requests' THEN value ELSE 0 END), SUM(CASE WHEN counter = 'sessions' THEN value ELSE 0 END)
                    FROM templateStatsDaily WHERE template = ? AND language = '*' AND counter IN ('requests', 'sessions')
                    GROUP BY variant, version ORDER BY MIN(day), variant
                    """,
                arguments: [name]
            )
            let hour = """
                SELECT MIN(bucket), MAX(bucket) FROM templateStats
                WHERE template = ? AND bucket >= ? AND bucket < ? AND variant = ? AND version = ? AND counter IN ('requests', 'sessions')
                """
            return try days.map { row in
                let (variant, version, firstDay, lastDay): (String, String, Int, Int) = (row[0], row[1], row[2], row[3])
                let first = try Row.fetchOne(db, sql: hour, arguments: [name, firstDay, firstDay + 86_400, variant, version])
                let last = try Row.fetchOne(db, sql: hour, arguments: [name, lastDay, lastDay + 86_400, variant, version])
                return VersionSpan(
                    template: TemplateIdentity(name: name, variant: variant, version: version),
                    firstBucket: first?[0] ?? firstDay,
                    lastBucket: last?[1] ?? lastDay,
                    requests: row[4],
                    sessions: row[5]
                )
            }
        }
    }
}
