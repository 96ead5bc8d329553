import Foundation
import GRDB
import PromptDomain

// Sessions, rounds, prompts and cache entries are read through these records and written as `SessionColumns`,
// `RoundRows` and `CacheEntryRow` (SQLiteRowInserts.swift), so they only decode. Feedback is both read and written here.

extension SessionColumns: FetchableRecord {
    /// A row selected as ``SessionColumns/names``.
    package init(row: Row) throws {
        self.init((row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[11]))
    }
}

/// A row of `sessionRound`.
package struct SessionRoundRecord: Decodable, FetchableRecord, TableRecord {
    package static let databaseTableName = "sessionRound"

    package var sessionId: String
    package var round: Int
    package var source: String
    package var fallbackReason: String?
    package var counted: Bool
    package var createdAt: Double
    package var answeredBy: BackendIdentity?
    /// The version of the session's variant that rendered this round; `nil` in rows written before v3.
    package var templateVersion: String?

    package func round(prompts: [SessionPromptRecord]) throws -> SessionRound {
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
package struct SessionPromptRecord: Decodable, FetchableRecord, TableRecord {
    package static let databaseTableName = "sessionPrompt"

    package var id: String
    package var sessionId: String
    package var round: Int
    package var position: Int
    package var text: String
    package var repeatKey: String
    package var wordCount: Int
    package var source: String

    package func prompt() throws -> Prompt {
        Prompt(id: id, text: text, wordCount: wordCount, source: try StoredValue.decode(PromptSource.self, source), repeatKey: repeatKey)
    }
}

/// A row of `cacheEntry`: the validated prompts of one model answer.
package struct CacheEntryRecord: Decodable, FetchableRecord, TableRecord {
    package static let databaseTableName = "cacheEntry"

    package var key: String
    package var prompts: [ValidPrompt]
    package var createdAt: Double
    package var expiresAt: Double
}

/// A row of `feedback`: one action on one prompt, at most once.
package struct FeedbackRecord: Codable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "feedback"

    package var promptId: String
    package var action: String
    package var sessionId: String
    package var createdAt: Double
}
