import Foundation
import PromptDomain

/// Sessions, the prompts they showed, their refreshes, and feedback on their prompts. The refresh limit is enforced
/// here, where every concurrent request is seen, across instances too: a refresh reserves a slot with one conditional
/// update, then commits it (counted) or releases it (fallback, failure, cancellation). A reservation is a lease
/// (``PromptStoreDefaults/claimLease``), so a slot held by a process that died comes back by itself.
public protocol SessionStore: Sendable {
    /// Creates `session` with its one round, round 0, and, when the model wrote the answer, the cache entry made from
    /// it, in one transaction: the request that made them waits for one commit, not two. The round's prompts join
    /// the user's history until `historyUntil`; nil keeps none.
    func createSession(_ session: SessionSnapshot, historyUntil: Date?, caching entry: CacheEntry?) async throws

    /// The session with every round shown so far, or `nil` when it is unknown or expired at `now`.
    func session(id: String, now: Date) async throws -> SessionSnapshot?

    /// Reserves one refresh of session `id` for `caller` if fewer than `limit` are used or in flight. A session
    /// `caller` does not own is `notFound`, and no slot of it is touched. With a `holder`, the same transaction gives
    /// it the session's refresh turn when no other holder's runs, and then reads the session and the newest
    /// `historyLimit` answers of its user's history (none for nil) into the reservation's `start`: a refresh whose
    /// turn is free visits the store for this and its commit only.
    func reserveRefresh(
        sessionID: String,
        limit: Int,
        now: Date,
        caller: Caller,
        turn holder: String?,
        historyLimit: Int?
    ) async throws -> RefreshReservation

    /// Records the refresh reserved earlier as `round`, made outside the transaction against `assumedShown`, the
    /// repeat keys of the prompts the session had shown. When it has shown others since (a concurrent refresh
    /// committed), nothing is written and the keys it has shown now come back, to make the round again. Else the
    /// round counts unless a fallback (then its slot is released), and in the same commit, the one the request waits
    /// on, its prompts join the user's history until `historyUntil` (nil keeps none), `turnHolder`'s turn ends, and
    /// `entry` (the model's cache entry) is written.
    func commitRefresh(
        sessionID: String,
        now: Date,
        historyUntil: Date?,
        turnHolder: String?,
        caching entry: CacheEntry?,
        round: SessionRound,
        assumingShown assumedShown: Set<String>
    ) async throws -> RefreshCommitOutcome

    /// Releases a reservation without recording a round, e.g. when the request was cancelled.
    func releaseRefresh(sessionID: String) async throws

    /// Gives `holder` the session's refresh turn, unless another holder's turn is running at `now`; a turn lapses
    /// with the claim lease, so one held by a process that died ends by itself. `true` also for a session that
    /// no longer exists: there is nothing to wait for, and the refresh finds out it is gone.
    func takeRefreshTurn(sessionID: String, holder: String, now: Date) async throws -> Bool

    /// Ends `holder`'s turn, so the next refresh of the session need not wait for the lease.
    func endRefreshTurn(sessionID: String, holder: String) async throws

    /// Records feedback on a prompt the session showed. Recording the same action on the same prompt again changes
    /// nothing and returns the first record.
    func recordFeedback(_ feedback: Feedback) async throws -> FeedbackOutcome
}

/// What committing a refresh did: the round committed, or nothing, because the session showed more meanwhile.
public enum RefreshCommitOutcome: Sendable {
    case committed(CommittedRound)
    case shownMeanwhile(Set<String>)
}

extension SessionStore {
    /// Reserves one refresh without taking the session's turn.
    public func reserveRefresh(sessionID: String, limit: Int, now: Date, caller: Caller) async throws -> RefreshReservation {
        try await reserveRefresh(sessionID: sessionID, limit: limit, now: now, caller: caller, turn: nil, historyLimit: nil)
    }

    /// Records the refresh reserved earlier: `choose` makes its round from the repeat keys the session has shown
    /// (`shown`, as the caller read them), outside the store's transaction, and again, with the keys as they are
    /// then, each time a concurrent refresh showed more before the commit. The keys only grow, so this ends.
    public func commitRefresh(
        sessionID: String,
        now: Date,
        historyUntil: Date? = nil,
        turnHolder: String? = nil,
        caching entry: CacheEntry? = nil,
        shown: Set<String> = [],
        choose: (Set<String>) -> SessionRound
    ) async throws -> CommittedRound {
        var shown = shown
        while true {
            switch try await commitRefresh(
                sessionID: sessionID,
                now: now,
                historyUntil: historyUntil,
                turnHolder: turnHolder,
                caching: entry,
                round: choose(shown),
                assumingShown: shown
            ) {
            case .committed(let committed): return committed
            case .shownMeanwhile(let keys): shown = keys
            }
        }
    }

    /// Creates a session with its first round, in one transaction, keeping no history and no cache entry.
    public func createSession(_ session: SessionSnapshot) async throws {
        try await createSession(session, historyUntil: nil, caching: nil)
    }
}
