import Foundation
import GRDB

// Sessions, rounds, prompts and cache entries are read through these records and written as `NewRows`
// (SQLiteRowInserts.swift), so they only decode. Feedback is both read and written here.

/// A row of `session`.
struct SessionRecord: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "session"

    var id: String
    var userID: String?
    var locale: String
    var photo: PhotoMetadata
    var templateName: String
    var templateVersion: String
    /// The A/B variant assigned at the start; `nil` in rows written before variants existed.
    var templateVariant: String?
    /// The client key's name that created it.
    var ownerKey: String
    var refreshesUsed: Int
    var refreshesPending: Int
    var nextRound: Int
    var createdAt: Double
    var expiresAt: Double
    var surplus: [ValidPrompt]

    func snapshot(rounds: [SessionRound]) -> SessionSnapshot {
        SessionSnapshot(
            id: id,
            owner: ownerKey,
            userID: userID,
            locale: locale,
            photo: photo,
            template: TemplateIdentity(name: templateName, variant: templateVariant, version: templateVersion),
            refreshesUsed: refreshesUsed,
            createdAt: Date(timeIntervalSince1970: createdAt),
            expiresAt: Date(timeIntervalSince1970: expiresAt),
            surplus: surplus,
            rounds: rounds
        )
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
