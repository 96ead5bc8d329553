import Foundation
import Logging
import PromptDomain
import PromptStores

/// Keeps eval runs in the service's own store (`DATABASE_PATH` or `DATABASE_URL`), where the console lists them.
public enum EvalRunArchive {
    /// Stores each of `reports` as a run summary; returns the summaries stored.
    /// - Throws: ``ConfigurationError`` when the store cannot be opened, or the store's error.
    @discardableResult
    public static func store(
        _ reports: [EvalReport],
        commit: String?,
        model: String,
        configuration: AppConfiguration,
        logger: Logger
    ) async throws -> [StoredEvalSummary] {
        let now = Date()
        let summaries = reports.map { report in
            StoredEvalSummary(id: RandomIdentifier.makeTimeOrdered(prefix: "ev_"), createdAt: now, commit: commit, model: model, report: report)
        }
        let encoder = SnakeCaseJSON.makeEncoder(.sortedKeys)
        let store: any ConsoleArchiveStore
        var close: () async throws -> Void = {}
        if let url = configuration.databaseURL {
            let postgres = try await PostgresPromptStore.runningItsOwnPool(url: url, maxConnections: 2, logger: logger)
            (store, close) = (postgres, { try await postgres.close() })
        } else {
            let (opened, _) = try openStore(configuration, logger: logger)
            store = opened
        }
        do {
            for summary in summaries {
                try await store.saveEvalRun(id: summary.id, at: now, report: try encoder.encode(summary))
            }
        } catch {
            try? await close()
            throw error
        }
        try await close()
        return summaries
    }
}
