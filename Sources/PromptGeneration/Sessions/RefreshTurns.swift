import Foundation
import PromptDomain
import PromptStores
import Tracing

/// Refreshes of one session take turns, in this process and across every instance sharing the store.
///
/// Without turns two refreshes of one session would read the same history and surplus, both show the same next
/// prompts, and the second commit would find them taken and fall back. The turn lives in the store (a holder and a
/// lease on the session row), so it holds no connection while the model writes, and a process that dies holding
/// it gives it up when the lease ends (`LLM_TIMEOUT` plus a small margin). A refresh waiting for it polls, and
/// never past its own request's deadline: then it is refused as in progress, to be retried.
/// At most `SESSIONS_REFRESH_LIMIT` refreshes of a session ever wait, because slots are reserved first.
package struct RefreshTurns: Sendable {
    package let store: any SessionStore
    package let clock: any WallClock
    /// Where a wait for the turn is a span: the time a refresh spent behind another of its session.
    package var tracer: any Tracer = NoOpTracer()
    /// How long to wait between tries: a turn usually ends within one model call.
    package var pollInterval: Duration = .milliseconds(20)

    /// Runs `body` while `holder` holds the turn of `sessionID`, taking it first unless it is `held` already (taken
    /// with the reservation). `body` ends the turn with its commit; when it throws or is cancelled, it ends here.
    ///
    /// - Throws: ``SessionError/refreshInProgress`` when the turn is still held at `deadline`.
    package func withTurn<Value: Sendable>(
        _ sessionID: String,
        holder: String,
        held: Bool,
        until deadline: ContinuousClock.Instant,
        _ body: () async throws -> Value
    ) async throws -> Value {
        if !held {
            try await tracer.withSpan("refresh turn wait") { _ in
                while try await !store.takeRefreshTurn(sessionID: sessionID, holder: holder, now: clock.now) {
                    guard try await pause(pollInterval, before: deadline) else { throw SessionError.refreshInProgress }
                }
            }
        }
        do {
            return try await body()
        } catch {
            let store = self.store
            await giveBack { try await store.endRefreshTurn(sessionID: sessionID, holder: holder) }
            throw error
        }
    }
}
