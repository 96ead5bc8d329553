/// Sleeps `interval`, or only until `deadline` when that comes first; returns `false`, without sleeping, once
/// `deadline` has passed.
///
/// The one shape of every wait that polls the store (a refresh's turn, an idempotency claim, a store that cannot
/// write for a moment): try, pause, try again, and stop at the deadline of the request that waits.
package func pause(_ interval: Duration, before deadline: ContinuousClock.Instant) async throws -> Bool {
    let now = ContinuousClock.now
    guard now < deadline else { return false }
    try await Task.sleep(until: min(now + interval, deadline))
    return true
}
