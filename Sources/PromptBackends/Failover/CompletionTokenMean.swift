import Synchronization

/// The mean completion tokens of one backend's recent calls: what a call cancelled before its reply would have
/// written, as far as anyone can tell, counted as tokens saved.
package final class CompletionTokenMean: Sendable {
    private let window: Mutex<RecentSamples<Int>>

    package init(capacity: Int = 50) {
        window = Mutex(RecentSamples(capacity: capacity))
    }

    package func record(_ tokens: Int) {
        window.withLock { $0.record(tokens) }
    }

    /// The mean of the recent calls, or `nil` before the first reply that reported its tokens.
    package var mean: Int? {
        window.withLock { window in
            window.values.isEmpty ? nil : window.values.reduce(0, +) / window.values.count
        }
    }
}
