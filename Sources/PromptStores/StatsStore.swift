import Foundation
import PromptDomain

/// Hourly counters per template version and language, for `GET /admin/stats` and the operators' console.
public protocol StatsStore: Sendable {
    /// Adds `counters` to the stored hourly counts.
    func addStats(_ counters: [StatsCounter]) async throws

    /// The counts the query selects, summed into its buckets: one counter per bucket, variant, version, language
    /// and name. The sum happens in the database, so a year of hours comes back as a few hundred days.
    func stats(_ query: StatsQuery) async throws -> [StatsCounter]

    /// Every version of the experiment `name` that ever answered: its first and last hour, answers and sessions.
    func versionSpans(template name: String) async throws -> [VersionSpan]
}

/// When a template version served, from its hourly counts, on every instance that shares the store.
public struct VersionSpan: Sendable, Equatable {
    public var template: TemplateIdentity
    /// The first and last hour it answered in, seconds since 1970.
    public var firstBucket: Int
    public var lastBucket: Int
    public var requests: Int
    public var sessions: Int

    public init(template: TemplateIdentity, firstBucket: Int, lastBucket: Int, requests: Int, sessions: Int) {
        self.template = template
        self.firstBucket = firstBucket
        self.lastBucket = lastBucket
        self.requests = requests
        self.sessions = sessions
    }
}

/// Which counts to read and how to sum them.
public struct StatsQuery: Sendable, Equatable {
    /// The experiment's name.
    public var template: String
    /// Buckets that start at or after this hour (rounded down)…
    public var from: Date
    /// …and before this time.
    public var to: Date
    /// Which languages to read, and whether to keep them apart.
    public var languages: LanguageSelection
    /// The length of the buckets the counts are summed into, a multiple of an hour: 3600 or 86 400 (UTC days); `nil`
    /// sums the whole range into one bucket, which starts at the first hour (or day) with counts.
    public var bucketSeconds: Int?
    /// Which counts to read: the hourly ones, or those summed per UTC day as they were written. A daily read starts
    /// at the midnight before `from`: it is for ranges of days, where a year is 365 rows a series instead of 8760.
    public var resolution: Resolution

    public enum Resolution: Sendable, Equatable { case hour, day }

    public init(
        template: String,
        from: Date,
        to: Date,
        languages: LanguageSelection = .all,
        bucketSeconds: Int? = StatsCounter.bucketSeconds,
        resolution: Resolution = .hour
    ) {
        self.template = template
        self.from = from
        self.to = to
        self.languages = languages
        self.bucketSeconds = bucketSeconds
        self.resolution = resolution
    }

    /// The first hour (or, reading days, the first midnight) the query reads.
    public var firstBucket: Int {
        let hour = StatsCounter.bucket(for: from)
        return resolution == .day ? hour - hour % 86_400 : hour
    }
}

/// The languages a ``StatsQuery`` reads.
public enum LanguageSelection: Sendable, Equatable {
    /// Every language, summed into one (reported as the language `""`).
    case all
    /// Every language, each kept apart.
    case each
    /// One language, by its tag (`es`).
    case one(String)
}

extension LanguageSelection {
    /// The language under which the daily sums keep every language summed, so all languages read as one row a day.
    static let everyLanguage = "*"
}

extension StatsQuery {
    /// Which rows hold the query's languages, as a comparison with `language` and the value to compare with: the
    /// daily sums' `*` rows for all languages, never those rows otherwise (the hourly counts have none).
    var languageFilter: (comparison: String, value: String) {
        switch (languages, resolution) {
        case (.one(let tag), _): ("=", tag)
        case (.all, .day): ("=", LanguageSelection.everyLanguage)
        case (.all, .hour), (.each, _): ("!=", LanguageSelection.everyLanguage)
        }
    }

    /// The SQL both stores read the query with: the table (the daily sums or the hourly counts) and its time column;
    /// each row's bucket start, the first row's for a whole range, which then groups by the key's own columns with no
    /// sort; the language, '' when `all` sums every language into one; and the columns it groups by.
    var sqlShape: (table: String, time: String, start: String, language: String, groupBy: String) {
        let (table, time) = resolution == .day ? ("templateStatsDaily", "day") : ("templateStats", "bucket")
        let start = bucketSeconds.map { "\(time) - \(time) % \($0)" } ?? "MIN(\(time))"
        let groups = (bucketSeconds == nil ? [] : ["start"]) + ["variant", "version"] + (languages == .all ? [] : ["language"]) + ["counter"]
        return (table, time, start, languages == .all ? "''" : "language", groups.joined(separator: ", "))
    }

    /// A row of that SQL, selected as `start, variant, version, lang, counter, total`, as a counter of the query's template.
    func counter(_ row: (Int, String, String, String, String, Int)) -> StatsCounter {
        let identity = TemplateIdentity(name: template, variant: row.1, version: row.2)
        return StatsCounter(bucket: row.0, template: identity, language: row.3, name: row.4, value: row.5)
    }
}
