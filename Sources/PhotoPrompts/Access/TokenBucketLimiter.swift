import Foundation
import Synchronization

/// Token buckets by name: each holds up to `capacity` tokens and refills `capacity` per minute, continuously.
/// Buckets live in this process: with several instances each keeps its own, so the effective limit is per instance.
final class TokenBucketLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    /// Requests allowed per minute, and the burst allowed at once.
    let perMinute: Int
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Past this many buckets, full ones (idle callers) are dropped: a full bucket is the same as no bucket.
    private let sweepThreshold = 10_000

    init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// Takes a token from `name`'s bucket at `now`: `nil` when allowed, otherwise the seconds until one is free.
    func take(_ name: String, now: Date) -> TimeInterval? {
        let capacity = Double(perMinute)
        let perSecond = capacity / 60
        return buckets.withLock { buckets in
            var bucket = buckets[name] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * perSecond)
            bucket.updated = now
            defer {
                buckets[name] = bucket
                if buckets.count > sweepThreshold {
                    buckets = buckets.filter { $0.value.tokens + now.timeIntervalSince($0.value.updated) * perSecond < capacity }
                }
            }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / perSecond }
            bucket.tokens -= 1
            return nil
        }
    }
}
