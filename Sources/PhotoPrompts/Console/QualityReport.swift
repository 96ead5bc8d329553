import Foundation
import Hummingbird
import PromptDomain

/// The answer to `GET /admin/quality`: each template version's measures over time, in hourly or daily points, for
/// one language or all, with its totals over the range.
struct QualityReport: ResponseEncodable, Sendable {
    /// One bucket's measures, flat beside its start.
    struct Point: Encodable, Sendable {
        /// The bucket's start, ISO 8601.
        var start: String
        var measures: QualityMeasures

        enum CodingKeys: CodingKey { case start }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(start, forKey: .start)
            try measures.encode(to: encoder)
        }
    }

    /// One version's points and totals.
    struct Series: Encodable, Sendable {
        var variant: String
        var version: String
        var totals: QualityMeasures
        var points: [Point]
    }

    var template: String
    var from: String
    var to: String
    /// `hour` or `day`.
    var bucket: String
    /// The language shown, or `null` for all.
    var language: String?
    /// Versions with answers in the range, most answers first.
    var versions: [Series]

    init(range: ConsoleRange, from: String, counters: [StatsCounter]) {
        template = range.template
        self.from = from
        to = range.toText
        bucket = range.bucket.rawValue
        language = range.language?.description
        versions = Dictionary(grouping: counters, by: \.template).map { identity, counters in
            let points = Dictionary(grouping: counters, by: \.bucket).sorted { $0.key < $1.key }.map { start, counters in
                Point(start: Date(timeIntervalSince1970: Double(start)).formatted(.iso8601), measures: QualityMeasures(summing: counters))
            }
            return Series(variant: identity.variant, version: identity.version, totals: QualityMeasures(summing: counters), points: points)
        }
        .sorted { ($0.totals.requests, $0.variant, $0.version) > ($1.totals.requests, $1.variant, $1.version) }
    }
}
