import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Hourly counters per template version (``StatsStore``), in PostgreSQL.
extension PostgresPromptStore {
    public func addStats(_ counters: [StatsCounter]) async throws {
        guard !counters.isEmpty else { return }
        // One statement for the whole batch; counts from every instance add up in the same rows.
        try await client.query(
            """
            INSERT INTO templateStats (bucket, template, variant, version, counter, value)
            SELECT * FROM unnest(\(counters.map(\.bucket))::bigint[], \(counters.map(\.template.name))::text[],
                \(counters.map(\.template.variant))::text[], \(counters.map(\.template.version))::text[],
                \(counters.map(\.name))::text[], \(counters.map(\.value))::bigint[])
            ON CONFLICT (template, bucket, variant, version, counter) DO UPDATE SET value = templateStats.value + excluded.value
            """,
            logger: logger
        )
    }

    public func stats(template name: String, from: Date, to: Date) async throws -> [StatsCounter] {
        let rows = try await client.query(
            """
            SELECT bucket, variant, version, counter, value FROM templateStats
            WHERE template = \(name) AND bucket >= \(StatsCounter.bucket(for: from)) AND bucket < \(to.timeIntervalSince1970)
            ORDER BY bucket
            """,
            logger: logger
        )
        var counters: [StatsCounter] = []
        for try await (bucket, variant, version, counter, value) in rows.decode((Int, String, String, String, Int).self) {
            counters.append(
                StatsCounter(bucket: bucket, template: TemplateIdentity(name: name, variant: variant, version: version), name: counter, value: value)
            )
        }
        return counters
    }
}
