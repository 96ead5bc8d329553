import Foundation
import PromptDomain

/// Idempotency keys: a claim per key while its request runs, then the answer kept for replay.
public protocol IdempotencyStore: Sendable {
    /// The answer kept under `key` for `client`, unless missing, still being made, or expired at `now`.
    func idempotentResponse(client: String, key: String, now: Date) async throws -> StoredResponse?

    /// Claims `key` for `client`, so that one request alone, on whichever instance, makes its answer. A claim
    /// lapses with the claim lease; so does an answer past its expiry, and either can then be claimed again. The
    /// claim names no user: the answer kept names the one it is for.
    func claimIdempotencyKey(client: String, key: String, fingerprint: String, now: Date) async throws -> IdempotencyClaim

    /// Keeps `response` under `key` for `client` until `expiresAt`, completing the claim; an answer already kept
    /// stays, so the first one wins.
    func keepIdempotentResponse(_ response: StoredResponse, client: String, key: String, expiresAt: Date) async throws

    /// Gives up a claim that made no answer to keep (a server error), so a retry can claim the key at once.
    func releaseIdempotencyKey(client: String, key: String) async throws
}

/// What a claim of an idempotency key found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// This request makes the answer.
    case claimed
    /// The answer is kept: replay it.
    case answered(StoredResponse)
    /// Another request, with this fingerprint, is making it now.
    case running(fingerprint: String)
}
