import Foundation
import Logging
import PostgresNIO

/// A `session` row as ``PostgresPromptStore`` reads it.
struct SessionRow {
    /// The columns, in the order of ``Columns``.
    static let columns = """
        id, ownerKey, userID, locale, photo, templateName, templateVariant, templateVersion, refreshesUsed, createdAt, \
        expiresAt, surplus
        """
    typealias Columns = (String, String, String?, String, String, String, String?, String, Int, Double, Double, String)

    var id: String
    var owner: String
    var userID: String?
    var locale: String
    var photo: String
    var template: (name: String, variant: String?, version: String)
    var refreshesUsed: Int
    var createdAt: Double
    var expiresAt: Double
    var surplus: String

    init(_ columns: Columns) {
        (id, owner, userID, locale, photo) = (columns.0, columns.1, columns.2, columns.3, columns.4)
        template = (columns.5, columns.6, columns.7)
        (refreshesUsed, createdAt, expiresAt, surplus) = (columns.8, columns.9, columns.10, columns.11)
    }

    func snapshot(rounds: [SessionRound]) throws -> SessionSnapshot {
        SessionSnapshot(
            id: id,
            owner: owner,
            userID: userID,
            locale: locale,
            photo: try JSONColumn.decode(PhotoMetadata.self, photo),
            template: TemplateIdentity(name: template.name, variant: template.variant, version: template.version),
            refreshesUsed: refreshesUsed,
            createdAt: Date(timeIntervalSince1970: createdAt),
            expiresAt: Date(timeIntervalSince1970: expiresAt),
            surplus: try JSONColumn.decode([ValidPrompt].self, surplus),
            rounds: rounds
        )
    }
}

extension RoundRows {
    /// Inserts the round and all its prompts in one statement, for a session that already exists.
    func insert(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            WITH newRound AS (
                INSERT INTO sessionRound (sessionId, round, source, fallbackReason, counted, createdAt, answeredBy, templateVersion)
                VALUES (\(sessionID), \(round), \(source), \(fallbackReason), \(counted), \(createdAt), \(answeredBy), \(templateVersion))
            )
            INSERT INTO sessionPrompt (id, sessionId, round, position, text, repeatKey, wordCount, source)
            SELECT id, \(sessionID), \(round), position, text, repeatKey, wordCount, source
            FROM unnest(\(promptIDs)::text[], \(positions)::bigint[], \(texts)::text[], \(repeatKeys)::text[], \(wordCounts)::bigint[],
                \(sources)::text[]) AS p (id, position, text, repeatKey, wordCount, source)
            """,
            logger: logger
        )
    }
}
