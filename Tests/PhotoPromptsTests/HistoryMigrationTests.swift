import Foundation
import GRDB
import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import Testing

/// Migration v9 packs the history's hex columns into one binary column; users keep what they were shown.
@Suite("Migration v9: the history in one binary column")
struct HistoryMigrationTests {
    @Test("Entries written before v9 read back with the same keys, terms and times")
    func legacyEntriesKept() async throws {
        let queue = try DatabaseQueue()
        try SQLitePromptStore.migrator.migrate(queue, upTo: "v8")
        try await queue.write { db in
            for row in LegacyHistory.rows {
                try db.execute(
                    sql: "INSERT INTO promptHistory (ownerKey, userID, keys, signatures, shownAt, expiresAt) VALUES ('ios', 'u_1', ?, ?, ?, 9999)",
                    arguments: [row.keys, row.signatures, row.shownAt]
                )
            }
        }
        let store = try SQLitePromptStore(writer: queue)
        let history = try await store.promptHistory(client: "ios", userID: "u_1", now: Date(timeIntervalSince1970: 0), limit: 10)
        #expect(history.map(\.key) == LegacyHistory.expected.map(\.key))
        #expect(history.map(\.signature.terms) == LegacyHistory.expected.map(\.terms))
        #expect(history.map(\.shownAt.timeIntervalSince1970) == LegacyHistory.expected.map(\.shownAt))
    }
}
