import PromptDomain
import Testing

@Suite("Latency percentiles from hourly histogram counters")
struct LatencyHistogramTests {
    @Test("A latency counts in the first bucket whose bound holds it; past the deadline it counts as inf")
    func counterNames() {
        #expect(LatencyHistogram.counterName(milliseconds: 0) == "first_answer_ms.le_5")
        #expect(LatencyHistogram.counterName(milliseconds: 5) == "first_answer_ms.le_5")
        #expect(LatencyHistogram.counterName(milliseconds: 6) == "first_answer_ms.le_10")
        #expect(LatencyHistogram.counterName(milliseconds: 15_000) == "first_answer_ms.le_15000")
        #expect(LatencyHistogram.counterName(milliseconds: 15_001) == "first_answer_ms.le_inf")
    }

    @Test("Quantiles interpolate within their bucket, as histogram_quantile does; none without counts")
    func quantiles() {
        let counts = ["first_answer_ms.le_10": 10, "first_answer_ms.le_1000": 10]
        // The median is the 10th of 20: the top of the 5–10 ms bucket.
        #expect(LatencyHistogram.quantile(0.5, of: counts) == 10)
        // The 95th is the 19th: nine tenths of the way through the 500–1000 ms bucket.
        #expect(LatencyHistogram.quantile(0.95, of: counts) == 950)
        #expect(LatencyHistogram.quantile(0.5, of: ["first_answer_ms.le_inf": 3]) == 15_000)
        #expect(LatencyHistogram.quantile(0.5, of: [:]) == nil)
    }
}
