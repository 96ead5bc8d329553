import Foundation
import PromptDomain
import PromptGeneration

/// Protects the bill: a prompt request needs a token from its user's and its key's bucket, else 429 with the wait.
/// Retries with an `Idempotency-Key` count too: a retry storm is what a limit is for.
public struct RequestLimits: Sendable {
    private let perKey: TokenBucketLimiter?
    private let perUser: TokenBucketLimiter?
    private let clock: any WallClock
    private let metrics: ServiceMetrics

    /// Creates limits; `nil` turns one off.
    public init(perKeyPerMinute: Int?, perUserPerMinute: Int?, clock: any WallClock, metrics: ServiceMetrics = ServiceMetrics()) {
        perKey = perKeyPerMinute.map(TokenBucketLimiter.init)
        perUser = perUserPerMinute.map(TokenBucketLimiter.init)
        self.clock = clock
        self.metrics = metrics
    }

    func admit(_ caller: Caller) throws(APIError) {
        let now = clock.now
        if let perUser, let userID = caller.userID, let wait = perUser.take("\(caller.client)\u{0}\(userID)", now: now) {
            metrics.rateLimitHit(scope: "user")
            throw .rateLimited(retryAfter: wait, scope: "user", limit: perUser.perMinute)
        }
        if let perKey, let wait = perKey.take(caller.client, now: now) {
            metrics.rateLimitHit(scope: "client_key")
            throw .rateLimited(retryAfter: wait, scope: "client key", limit: perKey.perMinute)
        }
    }
}

extension APIError {
    /// 429 `rate_limited`, with `Retry-After` and `retry_after_seconds` (whole seconds, rounded up).
    static func rateLimited(retryAfter: TimeInterval, scope: String, limit: Int) -> APIError {
        let seconds = max(1, Int(retryAfter.rounded(.up)))
        return APIError(
            .tooManyRequests,
            code: "rate_limited",
            message: "Too many prompt requests for this \(scope) (\(limit) a minute). Try again in \(seconds) s.",
            retryAfterSeconds: seconds
        )
    }
}
