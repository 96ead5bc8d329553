/// Sleeps `interval`, or only until `deadline` when that comes first; returns `false`, without sleeping, once
/// `deadline` has passed. For a store that cannot claim or write for a moment (another process holds SQLite's lock):
/// try, pause, try again, until the waiting request's deadline. A wait for another request is a ``Wakeups`` pause.
package func pause(_ interval: Duration, before deadline: ContinuousClock.Instant) async throws -> Bool {
    let now = ContinuousClock.now
    guard now < deadline else { return false }
    try await Task.sleep(until: min(now + interval, deadline))
    return true
}
