import Foundation
import PromptDomain

/// A refresh's commit as both stores work it out inside its transaction from the session's row as read there: the
/// round made outside it, numbered and counted, and the values to write.
struct RefreshCommit {
    /// The `session` columns a commit reads, in the order of ``Values``.
    static let names = "refreshesUsed, nextRound, surplus, ownerKey, userID, locale, photo"
    typealias Values = (Int, Int, String, String, String?, String, String)

    /// What the round adds to `refreshesUsed`: 1, or 0 for a fallback, which is released instead.
    let added: Int
    /// The `surplus` column after the round.
    let surplus: String
    let round: RoundRows
    let history: HistoryRows?
    let committed: CommittedRound

    init(_ current: Values, round draft: SessionRound, sessionID: String, now: Date, historyUntil: Date?) throws {
        let (used, nextRound, storedSurplus, owner, userID, locale, photo) = current
        var draft = draft
        let counts = draft.source != .fallback
        (draft.round, draft.counted, draft.createdAt) = (nextRound, counts, now)
        added = counts ? 1 : 0
        // A fallback round leaves the surplus as it was: it showed none of it.
        surplus = counts ? ValidPrompt.jsonColumn(draft.surplus) : storedSurplus
        round = RoundRows(draft, sessionID: sessionID)
        history = HistoryRows(
            draft,
            photo: try JSONColumn.decode(PhotoMetadata.self, photo),
            owner: owner,
            userID: userID,
            locale: LanguageTag(locale: locale),
            at: now,
            until: historyUntil
        )
        committed = CommittedRound(round: draft, refreshesUsed: used + added)
    }
}
