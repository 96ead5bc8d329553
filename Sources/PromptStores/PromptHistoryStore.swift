import Foundation
import PromptDomain

/// What each user was shown, so that no session of theirs shows it again inside the window an operator sets
/// (`PROMPT_HISTORY_DAYS`). Entries are written with the rounds that show them (``SessionStore``), read here, and
/// pruned with the other expiry sweeps; they hold a hash of the repeat key and a signature, never the text.
public protocol PromptHistoryStore: Sendable {
    /// The prompts of the newest `limit` answers shown to `userID` of `client` still inside the window at `now`, newest first.
    func promptHistory(client: String, userID: String, now: Date, limit: Int) async throws -> SeenHistory

    /// The same history (none without a `userID`) and the cache entry under `cacheKey`, unless missing or expired,
    /// in one read: all a first answer reads before it answers.
    func promptHistory(client: String, userID: String?, now: Date, limit: Int, cacheKey: String) async throws -> (SeenHistory, CacheEntry?)
}
