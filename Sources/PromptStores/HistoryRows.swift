import Foundation
import PromptDomain

/// A round's prompts as one entry of the user's history: one row per answer shown, its prompts packed in one binary
/// column. One row, not three: every new session writes it, on SQLite's single writer. Binary, so that reading a
/// user's 300 answers copies bytes and parses no text.
package struct HistoryRows {
    package let ownerKey: String
    package let userID: String
    /// The round's prompts as ``SeenHistory/packed(_:)`` stores them.
    package let prompts: Data
    package let shownAt: Double
    package let expiresAt: Double

    /// The entries for `round` about `photo`, shown at `date` to `userID` of `owner` reading `locale`; nil when
    /// nothing is kept: no user, or no window.
    package init?(
        _ round: SessionRound,
        photo: PhotoMetadata,
        owner: String,
        userID: String?,
        locale: LanguageTag,
        at date: Date,
        until: Date?
    ) {
        guard let userID, let until, until > date else { return nil }
        self.ownerKey = owner
        self.userID = userID
        // Signed only when a prompt does not say which of its words are the photo's (the answer's order works it out).
        let own = round.prompts.allSatisfy { $0.photoTerms != nil } ? .none : PromptSignature(photo: photo, language: locale)
        prompts = SeenHistory.packed(round.prompts.map { SeenPrompt($0, language: locale, shownAt: date, photo: own) })
        shownAt = date.timeIntervalSince1970
        expiresAt = until.timeIntervalSince1970
    }

    /// A new session's first round, kept until `until`.
    package init?(firstOf session: SessionSnapshot, until: Date?) {
        self.init(
            session.rounds[0],
            photo: session.photo,
            owner: session.owner,
            userID: session.userID,
            locale: session.locale,
            at: session.createdAt,
            until: until
        )
    }
}
