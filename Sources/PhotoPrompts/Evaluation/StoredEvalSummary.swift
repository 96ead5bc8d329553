import Foundation
import PromptDomain

/// An eval run as the console keeps it: what was run (commit, template version, model) and its numbers overall and
/// per language. The per-fixture texts stay in `eval-report.json`; the store keeps aggregates only.
public struct StoredEvalSummary: Codable, Sendable, Equatable {
    /// One language's fixtures.
    public struct LanguageRow: Codable, Sendable, Equatable {
        public var fixtures: Int
        public var passRate: Double?
        /// Share of the first answers' cards that the model wrote.
        public var modelCardShare: Double
        /// Share of the model's cards that name a detail of the photo.
        public var detailShare: Double?
        /// Share of fixtures answered wholly by fallbacks.
        public var fallbackShare: Double
        public var latencyP50Ms: Double
    }

    public var id: String
    /// When it was stored, ISO 8601.
    public var createdAt: String
    /// The commit it ran at, when given (`--commit`).
    public var commit: String?
    /// The backends, `provider/model`, in order.
    public var model: String
    public var template: TemplateIdentity
    public var fixtures: Int
    public var passRate: Double
    public var reaskRate: Double
    public var fallbackRate: Double
    public var detailShare: Double?
    public var latencyP50Ms: Double
    public var latencyP95Ms: Double
    public var tokensPerPhoto: Double?
    public var languages: [String: LanguageRow]

    public init(id: String, createdAt: Date, commit: String?, model: String, report: EvalReport) {
        self.id = id
        self.createdAt = createdAt.formatted(.iso8601)
        self.commit = commit
        self.model = model
        template = report.template
        fixtures = report.fixtures
        passRate = report.passRate
        reaskRate = report.reaskRate
        fallbackRate = report.fallbackRate
        detailShare = report.metadataMentionRate
        latencyP50Ms = report.latencyP50Ms
        latencyP95Ms = report.latencyP95Ms
        tokensPerPhoto = report.tokensPerPhoto
        languages = Dictionary(grouping: report.results, by: { $0.language ?? "" }).mapValues { results in
            let cards = results.map { $0.cardsFromModel ?? 0 }.reduce(0, +)
            let latencies = results.map(\.latencyMs).sorted()
            return LanguageRow(
                fixtures: results.count,
                passRate: nil,
                modelCardShare: Double(cards) / Double(results.count * ProductSpec.promptsPerAnswer),
                detailShare: cards > 0 ? Double(results.map { $0.cardsMentioning ?? 0 }.reduce(0, +)) / Double(cards) : nil,
                fallbackShare: Double(results.filter { $0.source == PromptSource.fallback.rawValue }.count) / Double(results.count),
                latencyP50Ms: latencies[latencies.count / 2]
            )
        }
        for (language, rate) in report.passRateByLanguage { languages[language]?.passRate = rate }
    }
}
