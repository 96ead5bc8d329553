/// Polls `condition` every 20 ms for up to `timeout`.
package func waitUntil(timeout: Duration = .seconds(10), _ condition: () async -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while await !condition() {
        guard ContinuousClock.now < deadline else { throw FixtureError("condition not met within \(timeout)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
