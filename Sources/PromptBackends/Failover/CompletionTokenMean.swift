import Synchronization

/// The mean completion tokens of one backend's recent calls: what a call cancelled before its reply would have
/// written, as far as anyone can tell, counted as tokens saved.
package final class CompletionTokenMean: Sendable {
    private struct Window {
        var samples: [Int] = []
        var next = 0
    }

    private let window = Mutex(Window())
    private let capacity: Int

    package init(capacity: Int = 50) {
        self.capacity = capacity
    }

    /// Records the completion tokens one call's reply reported.
    package func record(_ tokens: Int) {
        window.withLock { window in
            if window.samples.count < capacity {
                window.samples.append(tokens)
            } else {
                window.samples[window.next] = tokens
            }
            window.next = (window.next + 1) % capacity
        }
    }

    /// The mean of the recent calls, or `nil` before the first reply that reported its tokens.
    package var mean: Int? {
        window.withLock { window in
            window.samples.isEmpty ? nil : window.samples.reduce(0, +) / window.samples.count
        }
    }
}
