/// The recent latencies of one backend, to judge whether a re-ask still fits in the deadline.
package actor LatencyTracker {
    private var samples: RecentSamples<Duration>

    package init(capacity: Int = 50) {
        samples = RecentSamples(capacity: capacity)
    }

    /// Records one successful call's duration.
    package func record(_ duration: Duration) {
        samples.record(duration)
    }

    /// The 90th percentile of the recent samples, or `nil` before the first.
    package var p90: Duration? {
        guard !samples.values.isEmpty else { return nil }
        let sorted = samples.values.sorted()
        return sorted[min(sorted.count - 1, (sorted.count * 9) / 10)]
    }
}
