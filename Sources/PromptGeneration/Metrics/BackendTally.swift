import PromptBackends
import PromptDomain
import Synchronization

/// Each backend's calls, outcomes, latency and tokens since start-up, counted by the same calls that feed
/// `/metrics`, for the console's backends view (`GET /admin/backends`).
public final class BackendTally: Sendable {
    public struct Entry: Sendable, Equatable {
        /// Calls by outcome: `ok`, `timeout`, `http_500`, `skipped`, `cancelled`, …
        public var outcomes: [String: Int] = [:]
        /// Latency counts in ``LatencyHistogram``'s buckets (skipped calls excluded).
        public var latency: [String: Int] = [:]
        /// Milliseconds spent in calls, for the mean.
        public var totalMilliseconds: Double = 0
        /// Tokens the provider reported: `prompt`, `completion`.
        public var tokens: [String: Int] = [:]

        public init() {}
    }

    private let entries = Mutex<[String: Entry]>([:])

    package init() {}

    package func attempt(_ backend: String, outcome: String, duration: Duration) {
        entries.withLock { entries in
            entries[backend, default: Entry()].outcomes[outcome, default: 0] += 1
            guard outcome != BackendChain.Attempt.skipped else { return }
            let milliseconds = duration.milliseconds
            entries[backend, default: Entry()].latency[LatencyHistogram.counterName(milliseconds: Int(milliseconds)), default: 0] += 1
            entries[backend, default: Entry()].totalMilliseconds += milliseconds
        }
    }

    package func tokens(_ backend: String, _ usage: TokenUsage) {
        entries.withLock { entries in
            entries[backend, default: Entry()].tokens["prompt", default: 0] += usage.prompt
            entries[backend, default: Entry()].tokens["completion", default: 0] += usage.completion
        }
    }

    /// Every backend seen so far, by `provider/model`.
    public var snapshot: [String: Entry] { entries.withLock { $0 } }
}
