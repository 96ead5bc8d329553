/// The recent latencies of one backend, to judge whether a re-ask still fits in the deadline.
package actor LatencyTracker {
    private var samples: [Duration] = []
    private var next = 0
    private let capacity: Int

    package init(capacity: Int = 50) {
        self.capacity = capacity
    }

    /// Records one successful call's duration.
    package func record(_ duration: Duration) {
        if samples.count < capacity {
            samples.append(duration)
        } else {
            samples[next] = duration
        }
        next = (next + 1) % capacity
    }

    /// The 90th percentile of the recent samples, or `nil` before the first.
    package var p90: Duration? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, (sorted.count * 9) / 10)]
    }
}
