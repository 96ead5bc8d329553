import Foundation
import GRDB

// Sessions, rounds, prompts and cache entries are read through these records and written as `SessionColumns`,
// `RoundRows` and `CacheEntryRow` (SQLiteRowInserts.swift), so they only decode. Feedback is both read and written here.

extension SessionColumns: FetchableRecord {
    /// A row selected as ``SessionColumns/names``.
    init(row: Row) throws {
        self.init((row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[11]))
    }
}

/// A row of `sessionRound`.
struct SessionRoundRecord: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "sessionRound"

    var sessionId: String
    var round: Int
    var source: String
    var fallbackReason: String?
    var counted: Bool
    var createdAt: Double
    var answeredBy: BackendIdentity?
    /// The version of the session's variant that rendered this round; `nil` in rows written before v3.
    var templateVersion: String?

    func round(prompts: [SessionPromptRecord]) throws -> SessionRound {
        SessionRound(
            round: round,
            source: try StoredValue.decode(PromptSource.self, source),
            fallbackReason: try fallbackReason.map { try StoredValue.decode(FallbackReason.self, $0) },
            counted: counted,
            prompts: try prompts.map { try $0.prompt() },
            createdAt: Date(timeIntervalSince1970: createdAt),
            answeredBy: answeredBy,
            templateVersion: templateVersion
        )
    }
}

/// A row of `sessionPrompt`.
struct SessionPromptRecord: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "sessionPrompt"

    var id: String
    var sessionId: String
    var round: Int
    var position: Int
    var text: String
    var repeatKey: String
    var wordCount: Int
    var source: String

    func prompt() throws -> Prompt {
        Prompt(id: id, text: text, wordCount: wordCount, source: try StoredValue.decode(PromptSource.self, source))
    }
}

/// A row of `cacheEntry`: the validated prompts of one model answer.
struct CacheEntryRecord: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "cacheEntry"

    var key: String
    var prompts: [ValidPrompt]
    var createdAt: Double
    var expiresAt: Double
}

/// A row of `feedback`: one action on one prompt, at most once.
struct FeedbackRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "feedback"

    var promptId: String
    var action: String
    var sessionId: String
    var createdAt: Double
}
