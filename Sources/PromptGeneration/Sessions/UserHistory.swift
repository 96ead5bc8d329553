import Foundation
import Logging
import PromptDomain
import PromptStores

/// Each user's prompt history as sessions use it: read before a round is chosen, so nothing the user met inside the
/// window comes back, exactly or nearly; written with the round that shows it (``SessionStore``).
///
/// Only a user the app names (`user_id`) has a history; a request without one avoids only its own session's prompts.
public struct UserHistory: Sendable {
    /// No history: only a session's own prompts are avoided.
    public static let off = UserHistory(store: nil, window: 0)

    /// The most answers one request reads: far more than a user meets in a month, and 900 prompts, a few kB to compare.
    public static let readLimit = 300

    private let store: (any PromptHistoryStore)?
    /// How long an entry is kept (`PROMPT_HISTORY_DAYS`); 0 keeps none.
    public let window: TimeInterval

    public init(store: (any PromptHistoryStore)?, window: TimeInterval) {
        self.store = store
        self.window = window
    }

    /// How many answers a read takes (``readLimit``); nil when no history is kept.
    public var limit: Int? { store != nil && window > 0 ? Self.readLimit : nil }

    /// Until when a round shown at `now` to `userID` of `client` stays in their history; nil when it is not kept.
    public func until(client: String, userID: String?, from now: Date) -> Date? {
        guard store != nil, window > 0, userID != nil else { return nil }
        return now.addingTimeInterval(window)
    }

    /// What `userID` of `client` was shown inside the window, read before the round is chosen (the answer waits for
    /// it). A store that fails to answer costs the user their history for this request, never the request.
    public func seen(client: String, userID: String?, language: LanguageTag, now: Date, logger: Logger) async -> SeenPrompts {
        SeenPrompts(language: language, history: await entries(client: client, userID: userID, now: now, logger: logger))
    }

    /// What `userID` of `client` was shown inside the window, and the cache entry under `cacheKey`, in one read; nil
    /// when this history has no store to read both from. A store that fails to answer costs the request its history
    /// and the cached answer, never the request.
    public func seen(
        client: String,
        userID: String?,
        language: LanguageTag,
        now: Date,
        cacheKey: String,
        logger: Logger
    ) async -> (SeenPrompts, CacheEntry?)? {
        guard let store else { return nil }
        do {
            let (history, entry) = try await store.promptHistory(
                client: client,
                userID: window > 0 ? userID : nil,
                now: now,
                limit: Self.readLimit,
                cacheKey: cacheKey
            )
            return (SeenPrompts(language: language, history: history), entry)
        } catch {
            logger.warning("prompt history and cache read failed; answering without them", metadata: ["error": "\(error)"])
            return (SeenPrompts(language: language), nil)
        }
    }

    /// The prompts of the newest ``readLimit`` answers `userID` of `client` got in the window; none if the store fails.
    public func entries(client: String, userID: String?, now: Date, logger: Logger) async -> SeenHistory {
        guard let store, window > 0, let userID else { return [] }
        do {
            return try await store.promptHistory(client: client, userID: userID, now: now, limit: Self.readLimit)
        } catch {
            logger.warning("prompt history read failed; answering without it", metadata: ["error": "\(error)"])
            return []
        }
    }
}
