import Foundation
import PromptDomain

/// A round's prompts as one entry of the user's history: one row per answer shown, its prompts' hashed keys and
/// signatures each joined by commas. One row, not three: every new session writes it, on SQLite's single writer.
package struct HistoryRows {
    package let ownerKey: String
    package let userID: String
    package let keys: String
    package let signatures: String
    package let shownAt: Double
    package let expiresAt: Double

    /// The entries for `round`, shown at `date` to `userID` of `owner` reading `locale`; nil when nothing is kept:
    /// no user, or no window.
    package init?(_ round: SessionRound, owner: String, userID: String?, locale: LanguageTag, at date: Date, until: Date?) {
        guard let userID, let until, until > date else { return nil }
        let language = locale
        let seen = round.prompts.map { SeenPrompt($0, language: language, shownAt: date) }
        self.ownerKey = owner
        self.userID = userID
        keys = seen.map(\.key).joined(separator: ",")
        signatures = seen.map(\.signature.stored).joined(separator: ",")
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

    /// The prompts of one stored entry, as its columns read back.
    package static func seen(keys: String, signatures: String, shownAt: Double) -> [SeenPrompt] {
        let signatures = signatures.split(separator: ",", omittingEmptySubsequences: false)
        return keys.split(separator: ",").enumerated().map { index, key in
            let stored = index < signatures.count ? String(signatures[index]) : ""
            return SeenPrompt(key: String(key), signature: PromptSignature(stored: stored) ?? .none, shownAt: Date(timeIntervalSince1970: shownAt))
        }
    }
}
