import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Hourly counters per template version and language (``StatsStore``), in PostgreSQL.
extension PostgresPromptStore {
    public func addStats(_ counters: [StatsCounter]) async throws {
        guard !counters.isEmpty else { return }
        // In key order, so two instances lock the same rows in the same order and never deadlock.
        let counters = counters.sorted {
            DailyKey(day: $0.bucket, counter: $0, language: $0.language) < DailyKey(day: $1.bucket, counter: $1, language: $1.language)
        }
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
            let day = counter.bucket - counter.bucket % 86_400
            days[DailyKey(day: day, counter: counter, language: counter.language), default: 0] += counter.value
            days[DailyKey(day: day, counter: counter, language: LanguageSelection.everyLanguage), default: 0] += counter.value
        }
        let keys = days.keys.sorted()
        try await client.query(
            """
            INSERT INTO templateStatsDaily (day, template, variant, version, language, counter, value)
            SELECT * FROM unnest(\(keys.map(\.day))::bigint[], \(keys.map(\.template))::text[],
                \(keys.map(\.variant))::text[], \(keys.map(\.version))::text[],
                \(keys.map(\.language))::text[], \(keys.map(\.name))::text[], \(keys.map { days[$0] ?? 0 })::bigint[])
            ON CONFLICT (template, day, variant, version, language, counter) DO UPDATE SET value = templateStatsDaily.value + excluded.value
            """,
            logger: logger
        )
    }

    public func stats(_ query: StatsQuery) async throws -> [StatsCounter] {
        let (shape, language) = (query.sqlShape, query.languageFilter)
        let sql: PostgresQuery = """
            SELECT \(unescaped: shape.start) AS start, variant, version, \(unescaped: shape.language) AS lang, counter, SUM(value)::bigint
            FROM \(unescaped: shape.table)
            WHERE template = \(query.template) AND \(unescaped: shape.time) >= \(query.firstBucket)
                AND \(unescaped: shape.time) < \(query.to.timeIntervalSince1970)
                AND language \(unescaped: language.comparison) \(language.value)
            GROUP BY \(unescaped: shape.groupBy) ORDER BY start
            """
        return try await client.query(sql, logger: logger).decodeAll((Int, String, String, String, String, Int).self).map(query.counter)
    }

    public func versionSpans(template name: String) async throws -> [VersionSpan] {
        // Days and totals from the daily sums; first and last hours from those two days only, never a year of hours.
        let days = try await client.query(
            """
            SELECT variant, version, MIN(day), MAX(day),
                SUM(CASE WHEN counter = 'requests' THEN value ELSE 0 END)::bigint, SUM(CASE WHEN counter = 'sessions' THEN value ELSE 0 END)::bigint
            FROM templateStatsDaily WHERE template = \(name) AND language = '*' AND counter IN ('requests', 'sessions')
            GROUP BY variant, version ORDER BY MIN(day), variant
            """,
            logger: logger
        )
        var spans: [VersionSpan] = []
        for (variant, version, firstDay, lastDay, requests, sessions) in try await days.decodeAll((String, String, Int, Int, Int, Int).self) {
            let template = TemplateIdentity(name: name, variant: variant, version: version)
            let first = try await hours(of: template, day: firstDay).first ?? firstDay
            let last = try await hours(of: template, day: lastDay).last ?? lastDay
            spans.append(VersionSpan(template: template, firstBucket: first, lastBucket: last, requests: requests, sessions: sessions))
        }
        return spans
    }

    /// The first and last hour of `day` in which `template` answered.
    private func hours(of template: TemplateIdentity, day: Int) async throws -> (first: Int?, last: Int?) {
        let rows = try await client.query(
            """
            SELECT MIN(bucket), MAX(bucket) FROM templateStats
            WHERE template = \(template.name) AND bucket >= \(day) AND bucket < \(day + 86_400)
                AND variant = \(template.variant) AND version = \(template.version) AND counter IN ('requests', 'sessions')
            """,
            logger: logger
        )
        return try await rows.decodeFirst((Int?, Int?).self) ?? (nil, nil)
    }
}

/// A row's key (an hour's or a day's), to sum a batch's hours before writing and to write rows in the key's order.
private struct DailyKey: Hashable, Comparable {
    var day: Int
    var template: String
    var variant: String
    var version: String
    var language: String
    var name: String

    init(day: Int, counter: StatsCounter, language: String) {
        self.day = day
        template = counter.template.name
        variant = counter.template.variant
        version = counter.template.version
        self.language = language
        name = counter.name
    }

    static func < (left: DailyKey, right: DailyKey) -> Bool {
        (left.template, left.day, left.variant, left.version, left.language, left.name)
            < (right.template, right.day, right.variant, right.version, right.language, right.name)
    }
}
