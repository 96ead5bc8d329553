import Foundation

/// Refreshes of one session take turns, across every instance sharing the store.
///
/// ``SessionLocks`` orders the refreshes one process runs; two refreshes of one session can also land on two
/// instances. Without turns both would read the same history and surplus, both show the same next prompts, and
/// the second commit would find them taken and fall back. The turn itself lives in the store (a holder and a
/// lease on the session row), so it holds no connection while the model writes; a refresh waiting for it polls.
/// At most `SESSIONS_REFRESH_LIMIT` refreshes of a session ever wait, because slots are reserved first.
struct RefreshTurns: Sendable {
    let store: any PromptStore
    let clock: any WallClock
    /// How long to wait between tries: a turn usually ends within one model call.
    var pollInterval: Duration = .milliseconds(20)

    /// Runs `body` while holding the turn of `sessionID`; the turn ends with it, also when it throws or is cancelled.
    func withTurn<Value: Sendable>(_ sessionID: String, _ body: () async throws -> Value) async throws -> Value {
        let holder = RandomIdentifier.makeTimeOrdered(prefix: "t_")
        while try await !store.takeRefreshTurn(sessionID: sessionID, holder: holder, now: clock.now) {
            try await Task.sleep(for: pollInterval)
        }
        do {
            let value = try await body()
            try? await store.endRefreshTurn(sessionID: sessionID, holder: holder)
            return value
        } catch {
            let store = self.store
            await giveBack { try await store.endRefreshTurn(sessionID: sessionID, holder: holder) }
            throw error
        }
    }
}
