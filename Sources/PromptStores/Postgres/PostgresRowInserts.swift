import Logging
import PostgresNIO

extension RoundRows {
    /// Inserts the round and all its prompts in one statement, for a session that already exists.
    package func insert(on connection: PostgresConnection, logger: Logger) async throws {
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

extension HistoryRows {
    package func insert(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO promptHistory (ownerKey, userID, prompts, shownAt, expiresAt)
            VALUES (\(ownerKey), \(userID), \(ByteBuffer(bytes: prompts)), \(shownAt), \(expiresAt))
            """,
            logger: logger
        )
    }
}
