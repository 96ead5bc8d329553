import Foundation
import Logging
import PromptDomain
import PromptStores
import Synchronization

/// `Idempotency-Key` for `POST /v1/prompts` and `/refresh`: a retry gets the first answer again, never a second
/// session, a second refresh or a second backend call.
///
/// The first request claims the key in the store (a row with a lease as long as the request can run), and its
/// finished answer stays there for ``retention`` (24 h), so a retry after a crash, on a later connection or on
/// another instance is replayed from there. A retry that arrives while the first request is still running waits for
/// its answer, woken at once when the first request ends on this instance and asking the store again every
/// ``otherInstanceCheck`` in case it runs on another, until its own deadline: then it is refused as
/// `409 idempotency_key_in_use` with `Retry-After`. A claim left by a process that died lapses with its lease and
/// is taken over. Keys are scoped to the client API key; a key reused with a different request is 422.
public struct IdempotentRequests: Sendable {
    public static let retention: TimeInterval = 86_400

    fileprivate let store: any IdempotencyStore
    fileprivate let clock: any WallClock
    /// The backstop for a store call that does not return (a stalled database): each claim and keep ends by
    /// the request's deadline plus `margin`.
    fileprivate let deadlines: DeadlineWatch
    fileprivate let margin: Duration
    /// How often a store that cannot claim or keep for a moment is tried again.
    fileprivate let pollInterval: Duration = .milliseconds(25)
    /// How often a retry asks the store about an answer being made on another instance.
    fileprivate let otherInstanceCheck: Duration = .milliseconds(250)
    /// Wakes the retries waiting here when a key's first request ends here.
    fileprivate let ended = Wakeups()

    init(store: any IdempotencyStore, clock: any WallClock, deadlines: DeadlineWatch, margin: Duration) {
        self.store = store
        self.clock = clock
        self.deadlines = deadlines
        self.margin = margin
    }

    /// Claims `key`: the first request's answer when it has finished, awaited while it runs; else the key, held for
    /// this request until its answer is kept or the key is given back.
    ///
    /// - Throws: ``APIError`` 422 when `key` was used for a different request, 409 when the first request still
    ///   runs at `deadline`; the store's error when it cannot claim by then.
    func claim(
        client: String,
        key: String,
        fingerprint: String,
        deadline: ContinuousClock.Instant,
        logger: Logger
    ) async throws -> KeyClaim {
        try await deadlines.answer(by: deadline + margin) { [self] in
            while true {
                let claim: IdempotencyClaim
                do {
                    claim = try await store.claimIdempotencyKey(client: client, key: key, fingerprint: fingerprint, now: clock.now)
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
                    return .replay(stored)
                case .running(let other):
                    guard other == fingerprint else { throw APIError.idempotencyKeyReused }
                    guard try await ended.pause(otherInstanceCheck, on: Self.slot(client, key), before: deadline) else {
                        throw APIError.idempotencyKeyInUse
                    }
                case .claimed:
                    return .held(HeldKey(requests: self, client: client, key: key, fingerprint: fingerprint, deadline: deadline))
                }
            }
        }
    }
}

extension IdempotentRequests {
    /// A key's name among the waits of this instance: keys are per client.
    fileprivate static func slot(_ client: String, _ key: String) -> String { client + "\u{0}" + key }
}

/// What claiming an `Idempotency-Key` gives.
enum KeyClaim: Sendable {
    /// The first request's answer, to send again.
    case replay(StoredResponse)
    /// The key, held for this request.
    case held(HeldKey)
}

/// A request's hold on its `Idempotency-Key`: its answer is kept under the key, or the key is given back.
public struct HeldKey: Sendable {
    fileprivate let requests: IdempotentRequests
    fileprivate let client: String
    fileprivate let key: String
    fileprivate let fingerprint: String
    fileprivate let deadline: ContinuousClock.Instant
    /// Whether the request's work began, and for which user: a client error met before it (a malformed body, a rate
    /// limit) is not an answer to keep, since the same request may be served once it is sent again; the user is the
    /// one the handler read from the body it decoded, so the answer is deleted with their data.
    private let work = WorkBegan()

    /// How long past the request's deadline keeping its answer may be retried, inside the answer's own margin.
    private static let keepMargin: Duration = .milliseconds(500)

    /// Keeps the answer for replays (client errors, 4xx, are answers too: a retry gets the same 429), retrying a
    /// store that cannot write (another process holding SQLite's lock) until just past the deadline. An answer
    /// that cannot be kept is not given: a retry would make a second, different one, so the key is given back and
    /// the client gets the store's 503 and retries instead. The session or refresh it made stays, as after a crash.
    func keep(status: Int, body: [UInt8], serverTiming: String? = nil, logger: Logger) async throws {
        let userID = work.state.withLock { $0.userID }
        let answer = StoredResponse(status: status, body: body, serverTiming: serverTiming, fingerprint: fingerprint, userID: userID)
        let (requests, client, key, until) = (requests, client, key, deadline + Self.keepMargin)
        do {
            try await requests.deadlines.answer(by: deadline + requests.margin) {
                while true {
                    do {
                        let expiry = requests.clock.now.addingTimeInterval(IdempotentRequests.retention)
                        try await requests.store.keepIdempotentResponse(answer, client: client, key: key, expiresAt: expiry)
                        return requests.ended.wake(IdempotentRequests.slot(client, key))
                    } catch {
                        guard try await pause(requests.pollInterval, before: until) else {
                            logger.error("keeping an idempotent answer failed", metadata: ["error": "\(StoreFault(error)?.reason ?? "\(error)")"])
                            throw error
                        }
                    }
                }
            }
        } catch {
            await release()
            throw error
        }
    }

    /// Marks the request's work begun for `userID`: from here a client error it meets (a refresh limit) is its answer.
    func workBegins(for userID: String?) { work.state.withLock { $0 = (true, userID) } }
    var hasBegun: Bool { work.state.withLock { $0.began } }

    /// Gives the key back: the request failed on our side, or its client left before the answer was made.
    func release() async {
        let (store, client, key) = (requests.store, client, key)
        await giveBack { try await store.releaseIdempotencyKey(client: client, key: key) }
        requests.ended.wake(IdempotentRequests.slot(client, key))
    }
}

extension APIError {
    /// 422: an `Idempotency-Key` sent again with a different request.
    static let idempotencyKeyReused = APIError(
        .unprocessableContent,
        code: "idempotency_key_reused",
        message: "This Idempotency-Key was used for a different request. Use a new key for a new request."
    )

    /// 409: the first request with this `Idempotency-Key` was still running when this one's deadline came.
    static let idempotencyKeyInUse = APIError(
        .conflict,
        code: "idempotency_key_in_use",
        message: "A request with this Idempotency-Key is still running. Retry after a moment to get its answer.",
        retryAfterSeconds: 1
    )
}

/// What every copy of one ``HeldKey`` shares.
private final class WorkBegan: Sendable {
    let state = Mutex<(began: Bool, userID: String?)>((false, nil))
}
