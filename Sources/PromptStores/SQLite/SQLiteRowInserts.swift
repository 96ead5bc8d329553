import GRDB

// Cached statements bound to values worked out before the write: SQLite's one writer runs these one at a time.

extension SessionColumns {
    /// Inserts the session row; its first round goes in beside it, in the same write.
    package func insert(into db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO session (id, userID, locale, photo, templateName, templateVersion, templateVariant, ownerKey,
                    createdAt, expiresAt, surplus)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            id, userID, locale, photo, templateName, templateVersion, templateVariant, ownerKey, createdAt, expiresAt, surplus,
        ])
    }
}

extension RoundRows {
    func insert(into db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO sessionRound (sessionId, round, source, fallbackReason, counted, createdAt, answeredBy, templateVersion)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [sessionID, round, source, fallbackReason, counted, createdAt, answeredBy, templateVersion])
        let insertPrompt = try db.cachedStatement(
            sql: """
                INSERT INTO sessionPrompt (id, sessionId, round, position, text, repeatKey, wordCount, source)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        )
        for index in promptIDs.indices {
            try insertPrompt.execute(arguments: [
                promptIDs[index], sessionID, round, positions[index], texts[index], repeatKeys[index], wordCounts[index], sources[index],
            ])
        }
    }
}

extension HistoryRows {
    func insert(into db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT INTO promptHistory (ownerKey, userID, prompts, shownAt, expiresAt) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [ownerKey, userID, prompts, shownAt, expiresAt])
    }
}

extension CacheEntryRow {
    func upsert(into db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO cacheEntry (key, prompts, createdAt, expiresAt) VALUES (?, ?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET prompts = excluded.prompts, createdAt = excluded.createdAt, expiresAt = excluded.expiresAt
                """
        ).execute(arguments: [key, prompts, createdAt, expiresAt])
    }
}
