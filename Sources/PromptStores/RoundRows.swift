import Foundation
import PromptDomain

/// One round and its prompts as column values, the prompts' as arrays (PostgreSQL inserts them with `unnest`: one
/// statement). Worked out before the write, on the request's own task, so SQLite's single writer only binds and
/// steps; the repeat keys come with the prompts, worked out once when each candidate was judged.
package struct RoundRows {
    package let sessionID: String
    package let round: Int
    package let source: String
    package let fallbackReason: String?
    package let counted: Bool
    package let createdAt: Double
    package let answeredBy: String?
    package let templateVersion: String?
    package let promptIDs: [String]
    package let positions: [Int]
    package let texts: [String]
    package let repeatKeys: [String]
    package let wordCounts: [Int]
    package let sources: [String]

    /// The rows of `round` as it is kept: with its number, count and time set by the store.
    package init(_ draft: SessionRound, sessionID: String) {
        self.sessionID = sessionID
        self.round = draft.round
        self.source = draft.source.rawValue
        self.fallbackReason = draft.fallbackReason?.rawValue
        self.counted = draft.counted
        self.createdAt = draft.createdAt.timeIntervalSince1970
        self.answeredBy = draft.answeredBy?.jsonColumn
        self.templateVersion = draft.templateVersion
        promptIDs = draft.prompts.map(\.id)
        positions = Array(draft.prompts.indices)
        texts = draft.prompts.map(\.text)
        repeatKeys = draft.prompts.map(\.repeatKey)
        wordCounts = draft.prompts.map(\.wordCount)
        sources = draft.prompts.map(\.source.rawValue)
    }

    /// A new session's round 0, which never counts against the refresh limit, kept when the session is made.
    package init(firstOf session: SessionSnapshot) {
        var round = session.rounds[0]
        (round.round, round.counted, round.createdAt) = (0, false, session.createdAt)
        self.init(round, sessionID: session.id)
    }
}
