import Foundation
import GRDB
import PromptDomain
import PromptStores
import Testing

@Suite("Migration v8: stats gain a language and daily sums")
struct StatsMigrationTests {
    @Test("Counts written before v8 keep their values, with no language, and are summed into their UTC day, per language and in all")
    func countsBeforeLanguages() async throws {
        let queue = try DatabaseQueue()
        try SQLitePromptStore.migrator.migrate(queue, upTo: "v7")
        let day = 1_780_012_800  // a UTC midnight
        try await queue.write { db in
            for (hour, value) in [(1, 5), (2, 7), (25, 3)] {
                try db.execute(
                    sql:
                        "INSERT INTO templateStats (bucket, template, variant, version, counter, value) VALUES (?, 'photo-journal', 'photo-journal', 'v1', 'requests', ?)",
                    arguments: [day + hour * 3600, value]
                )
            }
        }
        try SQLitePromptStore.migrator.migrate(queue)
        let (hours, days) = try await queue.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT language, value FROM templateStats ORDER BY bucket").map {
                    "\($0["language"] as String)=\($0["value"] as Int)"
                },
                try Row.fetchAll(db, sql: "SELECT day, language, value FROM templateStatsDaily ORDER BY day, language").map {
                    "\($0[0] as Int) \($0[1] as String)=\($0[2] as Int)"
                }
            )
        }
        #expect(hours == ["=5", "=7", "=3"])
        // Each day once for its (empty) language, and once as every language summed: `*`.
        #expect(days == ["\(day) =12", "\(day) *=12", "\(day + 86_400) =3", "\(day + 86_400) *=3"])
    }
}
