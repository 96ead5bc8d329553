import Foundation
import Hummingbird
import PromptDomain
import PromptStores
import PromptTemplates

/// The answer to `GET /admin/versions`: what serves now, and every version of the template seen before, with
/// when it served and its files, so the console can diff any two.
struct VersionsReport: ResponseEncodable, Sendable {
    /// A variant serving on this instance now.
    struct Serving: Encodable, Sendable {
        var variant: String
        var version: String
        var weight: Int
    }

    /// A version seen before: from the store, so on PostgreSQL it covers every instance.
    struct Version: Encodable, Sendable {
        var variant: String
        var version: String
        /// The first and last hour it answered in (ISO 8601), `null` before its first answer.
        var firstServed: String?
        var lastServed: String?
        var requests: Int
        var sessions: Int
        /// Whether it answered in the last hour, on any instance.
        var servingRecently: Bool
        /// Its files as first loaded, when the archive has them.
        var files: [String: String]?
    }

    var template: String
    /// This instance's live variants; on PostgreSQL other instances show in `versions` as `serving_recently`.
    var serving: [Serving]
    var versions: [Version]

    init(set: TemplateSet, spans: [VersionSpan], archived: [TemplateVersionFiles], now: Date) {
        template = set.name
        serving = set.variants.map { variant in
            Serving(variant: variant.name, version: set.template(forVariant: variant.name).identity.version, weight: variant.weight)
        }
        let lastHour = StatsCounter.bucket(for: now) - StatsCounter.bucketSeconds
        func iso(_ bucket: Int) -> String { Date(timeIntervalSince1970: Double(bucket)).formatted(.iso8601) }
        let files = Dictionary(archived.map { ($0.template, $0.files) }, uniquingKeysWith: { first, _ in first })
        var versions = spans.map { span in
            Version(
                variant: span.template.variant,
                version: span.template.version,
                firstServed: iso(span.firstBucket),
                lastServed: iso(span.lastBucket),
                requests: span.requests,
                sessions: span.sessions,
                servingRecently: span.lastBucket >= lastHour,
                files: files[span.template]
            )
        }
        // Versions loaded but not yet asked for still belong in the list: an operator diffs an edit before it serves.
        for entry in archived where !spans.contains(where: { $0.template == entry.template }) {
            versions.append(
                Version(
                    variant: entry.template.variant,
                    version: entry.template.version,
                    requests: 0,
                    sessions: 0,
                    servingRecently: false,
                    files: entry.files
                )
            )
        }
        // Oldest first: by when a version was first loaded where the archive knows, else by its first answer.
        let firstSeen = Dictionary(archived.map { ($0.template.version, $0.firstSeen.timeIntervalSince1970) }, uniquingKeysWith: min)
        let firstAnswer = Dictionary(spans.map { ($0.template.version, Double($0.firstBucket)) }, uniquingKeysWith: min)
        self.versions = versions.sorted { a, b in
            let (left, right) = (firstSeen[a.version] ?? firstAnswer[a.version] ?? 0, firstSeen[b.version] ?? firstAnswer[b.version] ?? 0)
            return (left, a.variant, a.version) < (right, b.variant, b.version)
        }
    }
}
