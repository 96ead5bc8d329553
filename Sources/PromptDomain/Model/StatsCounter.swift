import Foundation

/// One counter of one template version, in one language, in one hour: the unit stats are stored and summed in.
/// Counters are named so new ones need no migration: `requests`, `sessions`, `refreshes`, `source.model`,
/// `fallback.timeout`, `rejected.too_short`, `reasks`, `feedback.selected`, `sessions_selected`, …
public struct StatsCounter: Sendable, Equatable {
    /// The start of the hour, in seconds since 1970.
    public var bucket: Int
    public var template: TemplateIdentity
    /// The request's language, as its canonical tag (`es`, `pt-BR`); empty for counts made before stats had one.
    public var language: String
    public var name: String
    public var value: Int

    public init(bucket: Int, template: TemplateIdentity, language: String, name: String, value: Int) {
        self.bucket = bucket
        self.template = template
        self.language = language
        self.name = name
        self.value = value
    }

    /// Buckets are an hour long: fine enough to compare before and after an edit, small enough to keep for months.
    public static let bucketSeconds = 3600

    public static func bucket(for date: Date) -> Int {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        return seconds - seconds % bucketSeconds
    }
}
