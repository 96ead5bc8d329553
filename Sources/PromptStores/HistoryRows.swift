import Foundation

/// A round's prompts as entries of the user's history, column by column (PostgreSQL inserts them with `unnest`).
package struct HistoryRows {
    package let ownerKey: String
    package let userID: String
    package let keys: [String]
    package let signatures: [String]
    package let shownAt: Double
    package let expiresAt: Double

    /// The entries for `round`, shown at `date` to `userID` of `owner` reading `locale`; nil when nothing is kept:
    /// no user, or no window.
    package init?(_ round: RoundDraft, owner: String, userID: String?, locale: String, at date: Date, until: Date?) {
        guard let userID, let until, until > date else { return nil }
        let language = LanguageTag(locale: locale)
        let seen = round.prompts.map { SeenPrompt($0, language: language, shownAt: date) }
        self.ownerKey = owner
        self.userID = userID
        keys = seen.map(\.key)
        signatures = seen.map(\.signature.stored)
        shownAt = date.timeIntervalSince1970
        expiresAt = until.timeIntervalSince1970
    }

    /// A new session's first round.
    package init?(firstOf session: NewSession) {
        self.init(
            session.firstRound,
            owner: session.owner,
            userID: session.userID,
            locale: session.locale,
            at: session.createdAt,
            until: session.historyUntil
        )
    }
}
