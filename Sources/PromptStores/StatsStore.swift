import Foundation
import PromptDomain

/// Hourly counters per template version, for `GET /admin/stats`.
public protocol StatsStore: Sendable {
    /// Adds `counters` to the stored hourly counts.
    func addStats(_ counters: [StatsCounter]) async throws

    /// The hourly counts of template `name` whose buckets start in `from..<to`.
    func stats(template name: String, from: Date, to: Date) async throws -> [StatsCounter]
}
