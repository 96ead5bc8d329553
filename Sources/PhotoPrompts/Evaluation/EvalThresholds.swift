import Foundation

/// Limits an operator sets on `photo-prompts eval`, so it can gate CI: any miss makes the command exit non-zero.
public struct EvalThresholds: Sendable {
    /// `--min-pass-rate`: share of raw candidates passing the word rule.
    public var minimumPassRate: Double?
    /// `--max-reask-rate`.
    public var maximumReaskRate: Double?
    /// `--max-fallback-rate`.
    public var maximumFallbackRate: Double?
    /// `--min-metadata-rate`.
    public var minimumMetadataMentionRate: Double?
    /// `--max-repeated`: prompts written for more than one photo.
    public var maximumRepeatedAcrossPhotos: Int?
    /// `--max-p95-ms`.
    public var maximumLatencyP95Milliseconds: Double?

    /// Creates thresholds; `nil` means unchecked.
    public init(
        minimumPassRate: Double? = nil,
        maximumReaskRate: Double? = nil,
        maximumFallbackRate: Double? = nil,
        minimumMetadataMentionRate: Double? = nil,
        maximumRepeatedAcrossPhotos: Int? = nil,
        maximumLatencyP95Milliseconds: Double? = nil
    ) {
        self.minimumPassRate = minimumPassRate
        self.maximumReaskRate = maximumReaskRate
        self.maximumFallbackRate = maximumFallbackRate
        self.minimumMetadataMentionRate = minimumMetadataMentionRate
        self.maximumRepeatedAcrossPhotos = maximumRepeatedAcrossPhotos
        self.maximumLatencyP95Milliseconds = maximumLatencyP95Milliseconds
    }

    /// One line per missed threshold, e.g. "pass rate 0.62 is below --min-pass-rate 0.9"; empty when all pass.
    public func misses(in report: EvalReport) -> [String] {
        var misses: [String] = []
        func below(_ value: Double?, _ limit: Double?, _ name: String, _ option: String) {
            guard let limit else { return }
            let value = value ?? 0
            if value < limit { misses.append("\(name) \(format(value)) is below \(option) \(format(limit))") }
        }
        func above(_ value: Double, _ limit: Double?, _ name: String, _ option: String) {
            guard let limit else { return }
            if value > limit { misses.append("\(name) \(format(value)) is above \(option) \(format(limit))") }
        }
        below(report.passRate, minimumPassRate, "pass rate", "--min-pass-rate")
        above(report.reaskRate, maximumReaskRate, "re-ask rate", "--max-reask-rate")
        above(report.fallbackRate, maximumFallbackRate, "fallback rate", "--max-fallback-rate")
        below(report.metadataMentionRate, minimumMetadataMentionRate, "metadata mention rate", "--min-metadata-rate")
        above(Double(report.repeatedAcrossPhotos), maximumRepeatedAcrossPhotos.map(Double.init), "prompts repeated across photos", "--max-repeated")
        above(report.latencyP95Ms, maximumLatencyP95Milliseconds, "latency p95 (ms)", "--max-p95-ms")
        return misses.map { "\(report.template.name)@\(report.template.version): \($0)" }
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.3f", value)
    }
}
