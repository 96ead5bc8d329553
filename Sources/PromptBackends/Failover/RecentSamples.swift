import Synchronization

/// The last `capacity` values, oldest overwritten first: a backend's recent latencies (their p90 says whether a re-ask
/// fits the deadline) and completion tokens (their mean is counted as saved when a call is cancelled before its reply).
package final class RecentSamples<Value: Sendable>: Sendable {
    /// The values kept, in no particular order, and where the next one goes once they fill `capacity`.
    private let window: Mutex<(values: [Value], next: Int)>
    private let capacity: Int

    package init(capacity: Int = 50) {
        self.capacity = capacity
        window = Mutex(([], 0))
    }

    package func record(_ value: Value) {
        window.withLock { window in
            if window.values.count < capacity {
                window.values.append(value)
            } else {
                window.values[window.next] = value
            }
            window.next = (window.next + 1) % capacity
        }
    }
}

extension RecentSamples where Value == Duration {
    /// The 90th percentile of the recent samples, or `nil` before the first.
    package var p90: Duration? {
        let sorted = window.withLock { $0.values }.sorted()
        return sorted.isEmpty ? nil : sorted[min(sorted.count - 1, (sorted.count * 9) / 10)]
    }
}

extension RecentSamples where Value == Int {
    /// The mean of the recent samples, or `nil` before the first reply that reported its tokens.
    package var mean: Int? {
        window.withLock { window in
            window.values.isEmpty ? nil : window.values.reduce(0, +) / window.values.count
        }
    }
}
