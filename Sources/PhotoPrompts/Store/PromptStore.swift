import Foundation

/// Everything PhotoPrompts keeps: sessions with the prompts they showed, and the cache of model answers.
///
/// Two implementations: ``SQLitePromptStore``, the default (one instance, one file), and ``PostgresPromptStore``,
/// which several instances share. The refresh limit is enforced here, in the store, because only the store sees
/// every concurrent request, across instances too: a refresh first reserves a slot with one conditional update,
/// then either commits it (counted) or releases it (fallback, failure, cancellation). A reservation is a lease
/// (``PromptStoreDefaults/claimLease``), so a slot held by a process that died comes back by itself.
public protocol PromptStore: Sendable {
    /// The cached, already-validated prompts under `key`, unless missing or expired at `now`.
    func cachedPrompts(forKey key: String, now: Date) async throws -> [ValidPrompt]?
    /// Stores `prompts` under `key` until `expiresAt`, replacing any older entry.
    func cachePrompts(_ prompts: [ValidPrompt], forKey key: String, expiresAt: Date) async throws

    /// Creates a session together with its first round and, when the model wrote the answer, the cache entry made
    /// from it, in one transaction: the request that made them waits for one commit, not two.
    func createSession(_ session: NewSession, caching entry: CacheEntry?) async throws
    /// The session with every round shown so far, or `nil` when it is unknown or expired at `now`.
    func session(id: String, now: Date) async throws -> SessionSnapshot?

    /// Reserves one refresh of session `id` for `caller` if fewer than `limit` are used or in flight. A session
    /// `caller` does not own is `notFound`, and no slot of it is touched.
    func reserveRefresh(sessionID: String, limit: Int, now: Date, caller: Caller) async throws -> RefreshReservation
    /// Records the refresh reserved earlier. `choose` runs inside the transaction with the repeat keys of every
    /// prompt the session has shown, including those committed by concurrent refreshes, and returns the round.
    /// The reservation counts when the round is not a fallback; otherwise it is released.
    func commitRefresh(sessionID: String, now: Date, choose: @Sendable (Set<String>) -> RoundDraft) async throws -> CommittedRound
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
    func recordFeedback(_ feedback: NewFeedback) async throws -> FeedbackOutcome

    /// Adds `counters` to the stored hourly counts.
    func addStats(_ counters: [StatsCounter]) async throws
    /// The hourly counts of template `name` whose buckets start in `from..<to`.
    func stats(template name: String, from: Date, to: Date) async throws -> [StatsCounter]

    /// The answer kept under `key` for `client`, unless missing, still being made, or expired at `now`.
    func idempotentResponse(client: String, key: String, now: Date) async throws -> StoredResponse?
    /// Claims `key` for `client`, so that one request alone, on whichever instance, makes its answer. A claim
    /// lapses with the claim lease; so does an answer past its expiry, and either can then be claimed again.
    func claimIdempotencyKey(client: String, key: String, fingerprint: String, userID: String?, now: Date) async throws -> IdempotencyClaim
    /// Keeps `response` under `key` for `client` until `expiresAt`, completing the claim; an answer already kept
    /// stays, so the first one wins.
    func keepIdempotentResponse(_ response: StoredResponse, client: String, key: String, expiresAt: Date) async throws
    /// Gives up a claim that made no answer to keep (a server error), so a retry can claim the key at once.
    func releaseIdempotencyKey(client: String, key: String) async throws

    /// Every session (expired or not, until pruned) and feedback of `userID` under the client key `client`.
    func exportUser(client: String, userID: String) async throws -> UserExport
    /// Deletes every session (with its rounds, prompts and feedback) and idempotent answer of `userID` under `client`.
    func deleteUser(client: String, userID: String) async throws -> DeletedUserData

    /// Succeeds when the database answers a query, for `/readyz`.
    func ping() async throws

    /// Deletes at most `limit` each of the sessions, cache entries and idempotent answers that expired before `now`,
    /// in one short transaction, so request writes never wait long behind a sweep. A store shared by several
    /// instances lets one of them prune at a time; the others skip the batch and report nothing removed.
    func pruneExpiredBatch(now: Date, limit: Int) async throws -> PruneCount

    /// Writes what is pending and lets go of the database; called once at shutdown, after the last request.
    func close() async throws
}

/// The answer to an idempotency claim.
public enum IdempotencyClaim: Sendable, Equatable {
    /// This request makes the answer.
    case claimed
    /// The answer is kept: replay it.
    case answered(StoredResponse)
    /// Another request, with this fingerprint, is making it now.
    case running(fingerprint: String)
}

/// Settings both stores share.
public enum PromptStoreDefaults {
    /// How long a claim made for one request holds without being completed: a refresh reservation, a refresh
    /// turn, an idempotency key being answered. The service's claims last `LLM_TIMEOUT` plus ``claimMargin``;
    /// this default is for stores opened without a configuration (tests, `generate`).
    public static let claimLease: TimeInterval = 15 + claimMargin
    /// What a claim's lease adds to the request's deadline: every request is answered by `LLM_TIMEOUT` + 1 s, so
    /// a claim older than that belongs to a process that died, and the next request takes it over.
    public static let claimMargin: TimeInterval = 2
}

extension PromptStore {
    /// Deletes everything that expired before `now`, `batchSize` rows of each kind per transaction, pausing between
    /// batches so that request writes go first; returns the total.
    public func pruneExpired(now: Date, batchSize: Int = 200, pause: Duration = .zero) async throws -> PruneCount {
        var total = PruneCount(sessions: 0, cacheEntries: 0)
        while true {
            let batch = try await pruneExpiredBatch(now: now, limit: batchSize)
            total.add(batch)
            guard max(batch.sessions, batch.cacheEntries, batch.idempotentAnswers) >= batchSize else { return total }
            try await Task.sleep(for: pause)
        }
    }

    /// Creates a session together with its first round, in one transaction.
    public func createSession(_ session: NewSession) async throws {
        try await createSession(session, caching: nil)
    }
}

/// A session about to be created.
public struct NewSession: Sendable {
    /// The opaque id.
    public var id: String
    /// The client key's name that creates it.
    public var owner: String
    /// The app's user id, if it sent one.
    public var userID: String?
    /// The locale prompts are written for.
    public var locale: String
    /// The photo's metadata.
    public var photo: PhotoMetadata
    /// The template in use when the session started.
    public var template: TemplateIdentity
    /// When the session started.
    public var createdAt: Date
    /// When it stops answering.
    public var expiresAt: Date
    /// Round 0.
    public var firstRound: RoundDraft

    /// Creates a session to store.
    public init(
        id: String,
        owner: String,
        userID: String?,
        locale: String,
        photo: PhotoMetadata,
        template: TemplateIdentity,
        createdAt: Date,
        expiresAt: Date,
        firstRound: RoundDraft
    ) {
        self.id = id
        self.owner = owner
        self.userID = userID
        self.locale = locale
        self.photo = photo
        self.template = template
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.firstRound = firstRound
    }
}

/// A round of prompts before it is stored.
public struct RoundDraft: Sendable {
    /// Where the round as a whole came from.
    public var source: PromptSource
    /// Set when `source` is `fallback`.
    public var fallbackReason: FallbackReason?
    /// The prompts shown, normally three.
    public var prompts: [Prompt]
    /// Valid prompts the model wrote beyond these three, kept to serve the next refresh without a backend call.
    public var surplus: [ValidPrompt] = []

    /// The backend that wrote the model prompts shown, if any.
    public var answeredBy: BackendIdentity?

    /// The template version that rendered the request, set by the session service before the round is stored.
    public var template: TemplateIdentity?

    /// Creates a round to store.
    public init(
        source: PromptSource,
        fallbackReason: FallbackReason? = nil,
        prompts: [Prompt],
        surplus: [ValidPrompt] = [],
        answeredBy: BackendIdentity? = nil,
        template: TemplateIdentity? = nil
    ) {
        self.source = source
        self.fallbackReason = fallbackReason
        self.prompts = prompts
        self.surplus = surplus
        self.answeredBy = answeredBy
        self.template = template
    }
}

/// A stored round and the session's count after it.
public struct CommittedRound: Sendable {
    /// What was stored.
    public var draft: RoundDraft
    /// Refreshes counted so far, including this one if it counted.
    public var refreshesUsed: Int
}

/// The answer to a refresh reservation.
public enum RefreshReservation: Sendable, Equatable {
    /// A slot is held; `ordinal` is which refresh this is (1 for the first).
    case reserved(ordinal: Int)
    /// Every slot is used or in flight.
    case limitReached(refreshesUsed: Int)
    /// No such session, or it expired.
    case notFound
}

/// What a prune removed.
public struct PruneCount: Sendable, Equatable {
    /// Sessions removed, with their rounds and prompts.
    public var sessions: Int
    /// Cache entries removed.
    public var cacheEntries: Int
    /// Idempotent answers removed.
    public var idempotentAnswers: Int

    /// Creates a count.
    public init(sessions: Int, cacheEntries: Int, idempotentAnswers: Int = 0) {
        self.idempotentAnswers = idempotentAnswers
        self.sessions = sessions
        self.cacheEntries = cacheEntries
    }

    /// Adds another batch's counts.
    mutating func add(_ other: PruneCount) {
        sessions += other.sessions
        cacheEntries += other.cacheEntries
        idempotentAnswers += other.idempotentAnswers
    }
}
