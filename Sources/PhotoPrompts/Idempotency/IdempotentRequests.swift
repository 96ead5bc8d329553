import Foundation
import Logging
import PromptDomain
import PromptStores

/// `Idempotency-Key` for `POST /v1/prompts` and `/refresh`: a retry gets the first answer again, never a second
/// session, a second refresh or a second backend call.
///
/// The first request claims the key in the store (a row with a lease as long as the request can run), and its
/// finished answer stays there for ``retention`` (24 h), so a retry after a crash, on a later connection or on
/// another instance is replayed from there. A retry that arrives while the first request is still running polls the
/// claim, on this instance or another alike, until the answer is kept or its own deadline comes: then it is refused
/// as `409 idempotency_key_in_use` with `Retry-After`. A claim left by a process that died lapses with its lease and
/// is taken over. Keys are scoped to the client API key; a key reused with a different request is 422.
public struct IdempotentRequests: Sendable {
    /// How long answers are kept.
    public static let retention: TimeInterval = 86_400

    private let store: any IdempotencyStore
    private let clock: any WallClock
    /// How often a retry checks on an answer another request is making.
    private let pollInterval: Duration = .milliseconds(25)
    /// How long past the request's deadline keeping its answer may be retried, inside the answer's own margin.
    private let keepMargin: Duration = .milliseconds(500)

    /// Creates the service over `store`.
    public init(store: any IdempotencyStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// The answer for `key`: replayed if the first request finished, awaited if it is running, else made by
    /// `produce` and kept. `produce` returns client errors (4xx) as answers, to be replayed like any other; what it
    /// throws is not kept, so a retry after a server error runs again.
    ///
    /// - Returns: the answer, and whether it is a replay.
    /// - Throws: ``APIError`` 422 when `key` was used for a different request, 409 when the first request still
    ///   runs at `deadline`.
    func run(
        client: String,
        key: String,
        fingerprint: String,
        userID: String?,
        deadline: ContinuousClock.Instant,
        logger: Logger,
        produce: () async throws -> StoredResponse
    ) async throws -> (response: StoredResponse, replayed: Bool) {
        while true {
            let claim: IdempotencyClaim
            do {
                claim = try await store.claimIdempotencyKey(client: client, key: key, fingerprint: fingerprint, userID: userID, now: clock.now)
            } catch {
                // Without the claim, a retry could make a second, different answer: wait for the store until the
                // deadline (another process may hold SQLite's lock for a moment), then answer 503.
                guard try await pause(pollInterval, before: deadline) else {
                    logger.error("idempotency claim failed", metadata: ["error": "\(StoreFault(error)?.reason ?? "\(error)")"])
                    throw error
                }
                continue
            }
            switch claim {
            case .answered(let stored):
                guard stored.fingerprint == fingerprint else { throw APIError.idempotencyKeyReused }
                return (stored, true)
            case .running(let other):
                guard other == fingerprint else { throw APIError.idempotencyKeyReused }
                guard try await pause(pollInterval, before: deadline) else { throw APIError.idempotencyKeyInUse }
            case .claimed:
                let answer: StoredResponse
                do {
                    answer = try await produce()
                } catch {
                    let store = self.store
                    await giveBack { try await store.releaseIdempotencyKey(client: client, key: key) }
                    throw error
                }
                try await keep(answer, client: client, key: key, until: deadline + keepMargin, logger: logger)
                return (answer, false)
            }
        }
    }
}

extension IdempotentRequests {
    /// Keeps `answer` for replays, retrying a store that cannot write (another process holding SQLite's lock) until
    /// `until`. An answer that cannot be kept is not given: a retry would make a second, different one, so the
    /// client gets the store's 503 and retries instead. The session or refresh it made stays, as after a crash.
    private func keep(_ answer: StoredResponse, client: String, key: String, until: ContinuousClock.Instant, logger: Logger) async throws {
        while true {
            do {
                try await store.keepIdempotentResponse(answer, client: client, key: key, expiresAt: clock.now.addingTimeInterval(Self.retention))
                return
            } catch {
                guard try await pause(pollInterval, before: until) else {
                    logger.error("keeping an idempotent answer failed", metadata: ["error": "\(StoreFault(error)?.reason ?? "\(error)")"])
                    let store = self.store
                    await giveBack { try await store.releaseIdempotencyKey(client: client, key: key) }
                    throw error
                }
            }
        }
    }
}

extension APIError {
    /// 422: an `Idempotency-Key` sent again with a different request.
    static let idempotencyKeyReused = APIError(
        .unprocessableContent,
        code: "idempotency_key_reused",
        message: "This Idempotency-Key was used for a different request. Use a new key for a new request."
    )
}

extension APIError {
    /// 409: the first request with this `Idempotency-Key` was still running when this one's deadline came.
    static let idempotencyKeyInUse = APIError(
        .conflict,
        code: "idempotency_key_in_use",
        message: "A request with this Idempotency-Key is still running. Retry after a moment to get its answer.",
        retryAfterSeconds: 1
    )
}
