/// Latencies in fixed buckets as hourly stats counters, so hours sum into days and percentiles read from any range.
/// Bounds run to the spec's 15 s deadline; each is a counter `first_answer_ms.le_<bound>` (not cumulative).
public enum LatencyHistogram {
    public static let prefix = "first_answer_ms.le_"
    /// Each bucket's upper bound, in milliseconds; a last bucket, `inf`, holds the rest.
    public static let bounds = [5, 10, 25, 50, 100, 250, 500, 1000, 2000, 4000, 8000, 15_000]

    /// The counter a latency of `milliseconds` adds one to.
    public static func counterName(milliseconds: Int) -> String {
        prefix + (bounds.first { milliseconds <= $0 }.map(String.init) ?? "inf")
    }

    /// The `quantile` (0…1) of the latencies in `counters`, interpolated within its bucket as Prometheus's
    /// `histogram_quantile` does; `nil` without any latency. A quantile in the last bucket reads as its lower bound.
    public static func quantile(_ quantile: Double, of counters: [String: Int]) -> Double? {
        let counts = bounds.map { counters[prefix + String($0)] ?? 0 } + [counters[prefix + "inf"] ?? 0]
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        let rank = quantile * Double(total)
        var below = 0
        for (index, count) in counts.enumerated() where count > 0 {
            if Double(below + count) >= rank {
                guard index < bounds.count else { return Double(bounds[bounds.count - 1]) }
                let lower = index == 0 ? 0 : Double(bounds[index - 1])
                let upper = Double(bounds[index])
                return lower + (upper - lower) * max(0, rank - Double(below)) / Double(count)
            }
            below += count
        }
        return Double(bounds[bounds.count - 1])
    }
}
