import Foundation
import GRDB
import PromptDomain

/// Hourly counters per template version (``StatsStore``), in SQLite.
extension SQLitePromptStore {
    public func addStats(_ counters: [StatsCounter]) async throws {
        try await batcher.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO templateStats (bucket, template, variant, version, counter, value) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (template, bucket, variant, version, counter) DO UPDATE SET value = value + excluded.value
                    """
            )
            for counter in counters {
                try statement.execute(arguments: [
                    counter.bucket, counter.template.name, counter.template.variant, counter.template.version, counter.name, counter.value,
                ])
            }
        }
    }

    public func stats(template name: String, from: Date, to: Date) async throws -> [StatsCounter] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT bucket, variant, version, counter, value FROM templateStats
                    WHERE template = ? AND bucket >= ? AND bucket < ? ORDER BY bucket
                    """,
                arguments: [name, StatsCounter.bucket(for: from), to.timeIntervalSince1970]
            )
            return rows.map { row in
                StatsCounter(
                    bucket: row["bucket"],
                    template: TemplateIdentity(name: name, variant: row["variant"], version: row["version"]),
                    name: row["counter"],
                    value: row["value"]
                )
            }
        }
    }
}
