import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Hourly counters per template version and language (``StatsStore``), in PostgreSQL.
extension PostgresPromptStore {
    public func addStats(_ counters: [StatsCounter]) async throws {
        guard !counters.isEmpty else { return }
        // One statement for the whole batch; counts from every instance add up in the same rows.
        try await client.query(
            """
            INSERT INTO templateStats (bucket, template, variant, version, language, counter, value)
            SELECT * FROM unnest(\(counters.map(\.bucket))::bigint[], \(counters.map(\.template.name))::text[],
                \(counters.map(\.template.variant))::text[], \(counters.map(\.template.version))::text[],
                \(counters.map(\.language))::text[], \(counters.map(\.name))::text[], \(counters.map(\.value))::bigint[])
            ON CONFLICT (template, bucket, variant, version, language, counter) DO UPDATE SET value = templateStats.value + excluded.value
            """,
            logger: logger
        )
        // The same counts per UTC day, summed first: one batch may hold several hours of a day.
        var days: [DailyKey: Int] = [:]
        for counter in counters {
            days[DailyKey(day: counter.bucket - counter.bucket % 86_400, counter: counter), default: 0] += counter.value
        }
        try await client.query(
            """
            INSERT INTO templateStatsDaily (day, template, variant, version, language, counter, value)
            SELECT * FROM unnest(\(days.keys.map(\.day))::bigint[], \(days.keys.map(\.template))::text[],
                \(days.keys.map(\.variant))::text[], \(days.keys.map(\.version))::text[],
                \(days.keys.map(\.language))::text[], \(days.keys.map(\.name))::text[], \(days.keys.map { days[$0] ?? 0 })::bigint[])
            ON CONFLICT (template, day, variant, version, language, counter) DO UPDATE SET value = templateStatsDaily.value + excluded.value
            """,
            logger: logger
        )
    }

    public func stats(_ query: StatsQuery) async throws -> [StatsCounter] {
        // `all` sums every language into one, reported as "".
        let mode = query.languages.mode
        let (table, time) = query.resolution == .day ? ("templateStatsDaily", "day") : ("templateStats", "bucket")
        let sql: PostgresQuery = """
            SELECT \(unescaped: time) - \(unescaped: time) % \(query.bucketSeconds) AS start, variant, version,
                CASE WHEN \(mode) = 'all' THEN '' ELSE language END AS lang, counter, SUM(value)::bigint
            FROM \(unescaped: table)
            WHERE template = \(query.template) AND \(unescaped: time) >= \(query.firstBucket) AND \(unescaped: time) < \(query.to.timeIntervalSince1970)
                AND (\(mode) != 'one' OR language = \(query.languages.tag))
            GROUP BY start, variant, version, lang, counter ORDER BY start
            """
        let rows = try await client.query(sql, logger: logger)
        var counters: [StatsCounter] = []
        for try await (bucket, variant, version, language, counter, value) in rows.decode((Int, String, String, String, String, Int).self) {
            counters.append(
                StatsCounter(
                    bucket: bucket,
                    template: TemplateIdentity(name: query.template, variant: variant, version: version),
                    language: language,
                    name: counter,
                    value: value
                )
            )
        }
        return counters
    }

    public func versionSpans(template name: String) async throws -> [VersionSpan] {
        let rows = try await client.query(
            """
            SELECT variant, version, MIN(bucket), MAX(bucket),
                SUM(CASE WHEN counter = 'requests' THEN value ELSE 0 END)::bigint, SUM(CASE WHEN counter = 'sessions' THEN value ELSE 0 END)::bigint
            FROM templateStats WHERE template = \(name) AND counter IN ('requests', 'sessions')
            GROUP BY variant, version ORDER BY MIN(bucket), variant
            """,
            logger: logger
        )
        var spans: [VersionSpan] = []
        for try await (variant, version, first, last, requests, sessions) in rows.decode((String, String, Int, Int, Int, Int).self) {
            spans.append(
                VersionSpan(
                    template: TemplateIdentity(name: name, variant: variant, version: version),
                    firstBucket: first,
                    lastBucket: last,
                    requests: requests,
                    sessions: sessions
                )
            )
        }
        return spans
    }
}

/// A daily row's key, for summing a batch's hours before they are written.
private struct DailyKey: Hashable {
    var day: Int
    var template: String
    var variant: String
    var version: String
    var language: String
    var name: String

    init(day: Int, counter: StatsCounter) {
        self.day = day
        template = counter.template.name
        variant = counter.template.variant
        version = counter.template.version
        language = counter.language
        name = counter.name
    }
}
