import Foundation
import Logging
import Synchronization

/// `Idempotency-Key` for `POST /v1/prompts` and `/refresh`: a retry gets the first answer again, never a second
/// session, a second refresh or a second backend call.
///
/// Finished answers live in the store for ``retention`` (24 h), so a retry after a crash, on a later connection or on
/// another instance is replayed from there. A retry that arrives while the first request is still running waits for
/// it: here, in process, when both reached this instance; by polling the store's claim on the key when the first is
/// running on another instance. Keys are scoped to the client API key; a key reused with a different request is 422.
public final class IdempotencyService: Sendable {
    /// How long answers are kept.
    public static let retention: TimeInterval = 86_400

    private struct Scope: Hashable {
        var client: String
        var key: String
    }

    private struct Flight {
        var fingerprint: String
        var waiters: [CheckedContinuation<StoredResponse?, Never>] = []
    }

    private let flights = Mutex<[Scope: Flight]>([:])
    private let store: any PromptStore
    private let clock: any WallClock
    /// How often a retry checks on an answer another instance is making.
    private let pollInterval: Duration = .milliseconds(25)

    /// Creates the service over `store`.
    public init(store: any PromptStore, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// The answer for `key`: replayed if the first request finished, awaited if it is running, else made by
    /// `produce` and kept. `produce` returns client errors (4xx) as answers, to be replayed like any other; what it
    /// throws is not kept, so a retry after a server error runs again.
    ///
    /// - Returns: the answer, and whether it is a replay.
    /// - Throws: ``APIError`` 422 when `key` was used for a different request.
    func run(
        client: String,
        key: String,
        fingerprint: String,
        userID: String?,
        logger: Logger,
        produce: () async throws -> StoredResponse
    ) async throws -> (response: StoredResponse, replayed: Bool) {
        let scope = Scope(client: client, key: key)
        while true {
            switch claim(scope, fingerprint: fingerprint) {
            case .reused:
                throw APIError.idempotencyKeyReused
            case .follow:
                // Resumed with nil when the first request ended without an answer; then try again from the top.
                let answer = await withCheckedContinuation { continuation in
                    let waiting = flights.withLock { flights in
                        guard flights[scope] != nil else { return false }
                        flights[scope]?.waiters.append(continuation)
                        return true
                    }
                    if !waiting { continuation.resume(returning: nil) }
                }
                if let answer {
                    guard answer.fingerprint == fingerprint else { throw APIError.idempotencyKeyReused }
                    return (answer, true)
                }
            case .lead:
                let outcome = await Result.capturing {
                    try await lead(scope, fingerprint: fingerprint, userID: userID, logger: logger, produce: produce)
                }
                let waiters = flights.withLock { $0.removeValue(forKey: scope)?.waiters ?? [] }
                // Without an answer (a server error), the waiting retries start over and one of them runs it again.
                for waiter in waiters { waiter.resume(returning: try? outcome.get().0) }
                let (answer, replayed) = try outcome.get()
                guard answer.fingerprint == fingerprint else { throw APIError.idempotencyKeyReused }
                return (answer, replayed)
            }
        }
    }

    private enum Claim {
        case lead, follow, reused
    }

    /// Registers this request as the one running `scope`, or says whom to wait for.
    private func claim(_ scope: Scope, fingerprint: String) -> Claim {
        flights.withLock { flights in
            if let flight = flights[scope] { return flight.fingerprint == fingerprint ? .follow : .reused }
            flights[scope] = Flight(fingerprint: fingerprint)
            return .lead
        }
    }

    /// Runs as the only request for `scope` in this process, and claims it in the store so that it is the only one
    /// on any instance: a stored answer is replayed, one being made elsewhere is awaited, else this one makes it.
    private func lead(
        _ scope: Scope,
        fingerprint: String,
        userID: String?,
        logger: Logger,
        produce: () async throws -> StoredResponse
    ) async throws -> (StoredResponse, Bool) {
        while true {
            let claim: IdempotencyClaim
            do {
                claim = try await store.claimIdempotencyKey(
                    client: scope.client,
                    key: scope.key,
                    fingerprint: fingerprint,
                    userID: userID,
                    now: clock.now
                )
            } catch {
                // Without the store the key cannot be checked; answering beats failing, as for the cache.
                logger.error("idempotency claim failed", metadata: ["error": "\(error)"])
                return (try await produce(), false)
            }
            switch claim {
            case .answered(let stored):
                return (stored, true)
            case .running(let other):
                guard other == fingerprint else { throw APIError.idempotencyKeyReused }
                // Another instance is making the answer; it ends by its deadline, or its claim lapses.
                try await Task.sleep(for: pollInterval)
            case .claimed:
                let answer: StoredResponse
                do {
                    answer = try await produce()
                } catch {
                    let store = self.store
                    await giveBack { try await store.releaseIdempotencyKey(client: scope.client, key: scope.key) }
                    throw error
                }
                do {
                    try await store.keepIdempotentResponse(
                        answer,
                        client: scope.client,
                        key: scope.key,
                        expiresAt: clock.now.addingTimeInterval(Self.retention)
                    )
                } catch {
                    logger.error("keeping an idempotent answer failed", metadata: ["error": "\(error)"])
                }
                return (answer, false)
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
