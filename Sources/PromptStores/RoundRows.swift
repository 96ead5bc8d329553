import Foundation

/// One round and its prompts as column values: the round's, and the prompts' as arrays (PostgreSQL inserts them
/// with `unnest`, so any number of prompts is one statement).
///
/// Both stores work these out before they write. The JSON and the repeat keys are then computed on the request's
/// own task, in parallel with other requests, and SQLite's single writer only binds and steps statements.
struct RoundRows {
    let sessionID: String
    let round: Int
    let source: String
    let fallbackReason: String?
    let counted: Bool
    let createdAt: Double
    let answeredBy: String?
    let templateVersion: String?
    let promptIDs: [String]
    let positions: [Int]
    let texts: [String]
    let repeatKeys: [String]
    let wordCounts: [Int]
    let sources: [String]

    init(_ draft: RoundDraft, round: Int, counted: Bool, sessionID: String, at date: Date) {
        self.sessionID = sessionID
        self.round = round
        self.source = draft.source.rawValue
        self.fallbackReason = draft.fallbackReason?.rawValue
        self.counted = counted
        self.createdAt = date.timeIntervalSince1970
        self.answeredBy = draft.answeredBy?.jsonColumn
        self.templateVersion = draft.template?.version
        promptIDs = draft.prompts.map(\.id)
        positions = Array(draft.prompts.indices)
        texts = draft.prompts.map(\.text)
        repeatKeys = draft.prompts.map { PromptNormalizer.repeatKey($0.text) }
        wordCounts = draft.prompts.map(\.wordCount)
        sources = draft.prompts.map(\.source.rawValue)
    }

    /// A new session's round 0, which never counts against the refresh limit.
    init(firstOf session: NewSession) {
        self.init(session.firstRound, round: 0, counted: false, sessionID: session.id, at: session.createdAt)
    }
}
