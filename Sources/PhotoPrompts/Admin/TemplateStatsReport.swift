import Foundation
import Hummingbird
import PromptDomain

/// The answer to `GET /admin/stats`: per variant and version, how its prompts did over a window.
struct TemplateStatsReport: ResponseEncodable, Sendable {
    /// One template version's numbers: its variant and version beside its ``QualityMeasures``, in one object.
    struct Version: Encodable, Sendable {
        var variant: String
        /// The version's content hash.
        var version: String
        var measures: QualityMeasures

        enum CodingKeys: CodingKey { case variant, version }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(variant, forKey: .variant)
            try container.encode(version, forKey: .version)
            try measures.encode(to: encoder)
        }
    }

    /// The experiment's name.
    var template: String
    /// The window's start, ISO 8601 (rounded down to the hour: counts are hourly).
    var from: String
    /// The window's end, ISO 8601.
    var to: String
    /// One entry per variant and version seen in the window, most requests first.
    var versions: [Version]

    /// Sums `counters` per variant and version.
    init(template: String, from: Date, to: Date, counters: [StatsCounter]) {
        self.template = template
        self.from = Date(timeIntervalSince1970: Double(StatsCounter.bucket(for: from))).formatted(.iso8601)
        self.to = to.formatted(.iso8601)
        versions = Dictionary(grouping: counters, by: \.template)
            .map { Version(variant: $0.key.variant, version: $0.key.version, measures: QualityMeasures(summing: $0.value)) }
            .sorted { ($0.measures.requests, $0.variant, $0.version) > ($1.measures.requests, $1.variant, $1.version) }
    }
}
