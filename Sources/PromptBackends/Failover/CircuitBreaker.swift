import Foundation
import PromptDomain

/// Keeps calls away from a backend that keeps failing, or that asked us to wait.
///
/// Closed: calls pass; `failureThreshold` consecutive failures open it. Open: calls are refused until the
/// cool-down ends. Then one probe is let through (half-open): success closes it, failure opens it again. A 429's
/// `Retry-After` refuses calls until then, whatever the state, but never for longer than `retryAfterMax`
/// (`BACKEND_RETRY_AFTER_MAX`): one odd header must not shut a backend out until the process restarts.
package actor CircuitBreaker {
    private enum Phase {
        case closed(consecutiveFailures: Int)
        case open(until: Date)
        case halfOpen(probeInFlight: Bool)
    }

    private let failureThreshold: Int
    private let coolDown: TimeInterval
    private let retryAfterMax: TimeInterval
    private let clock: any WallClock
    private var phase = Phase.closed(consecutiveFailures: 0)
    private var quietUntil: Date?

    package init(failureThreshold: Int, coolDown: TimeInterval, retryAfterMax: TimeInterval, clock: any WallClock) {
        self.failureThreshold = failureThreshold
        self.coolDown = coolDown
        self.retryAfterMax = retryAfterMax
        self.clock = clock
    }

    /// For metrics and readiness: 1 while calls are refused, 0.5 when the next call would be a probe, 0 when closed.
    package var openness: Double {
        if let quietUntil, clock.now < quietUntil { return 1 }
        switch phase {
        case .closed: return 0
        case .open(let until): return clock.now < until ? 1 : 0.5
        case .halfOpen: return 0.5
        }
    }

    /// Whether a call may go out now. In half-open state only the first caller (the probe) is let through.
    package func permitsCall() -> Bool {
        if let quietUntil, clock.now < quietUntil { return false }
        switch phase {
        case .closed:
            return true
        case .open(let until):
            guard clock.now >= until else { return false }
            phase = .halfOpen(probeInFlight: true)
            return true
        case .halfOpen(let probeInFlight):
            guard !probeInFlight else { return false }
            phase = .halfOpen(probeInFlight: true)
            return true
        }
    }

    package func recordSuccess() { phase = .closed(consecutiveFailures: 0) }

    /// Records a failure; `retryAfter` (from a 429) keeps callers away for that long, up to `retryAfterMax`.
    package func recordFailure(retryAfter: TimeInterval? = nil) {
        let now = clock.now
        if let retryAfter, retryAfter > 0 {
            let wait = min(retryAfter, retryAfterMax)
            // A capped wait replaces a longer one pending: the cap holds even against a header seen before it.
            quietUntil = min(max(quietUntil ?? now, now.addingTimeInterval(wait)), now.addingTimeInterval(retryAfterMax))
        }
        switch phase {
        case .closed(let failures) where failures + 1 < failureThreshold:
            phase = .closed(consecutiveFailures: failures + 1)
        default:
            phase = .open(until: now.addingTimeInterval(coolDown))
        }
    }

    /// Gives back a probe slot that was never used, e.g. when the request was cancelled before the call.
    package func releaseProbe() {
        if case .halfOpen(true) = phase { phase = .halfOpen(probeInFlight: false) }
    }
}
