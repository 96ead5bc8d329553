import Foundation
import PromptDomain

/// What the operators' console keeps beyond the counters: every template version's files, and stored eval runs.
public protocol ConsoleArchiveStore: Sendable {
    /// Keeps each version's files; a version already kept keeps its first files and time.
    func archiveTemplateVersions(_ versions: [TemplateVersionFiles]) async throws

    /// Every kept version of the experiment `name`, oldest first.
    func templateVersions(template name: String) async throws -> [TemplateVersionFiles]

    /// Keeps an eval run's report (JSON) under `id`.
    func saveEvalRun(id: String, at: Date, report: Data) async throws

    /// The newest `limit` eval runs, newest first.
    func evalRuns(limit: Int) async throws -> [StoredEvalRun]
}

/// One stored eval run: its id, when it was stored, and its report as JSON.
public struct StoredEvalRun: Sendable, Equatable {
    public var id: String
    public var createdAt: Date
    public var report: Data
}
