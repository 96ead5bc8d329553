import Foundation
import Logging
import PostgresNIO
import PromptDomain

/// Template versions' files and eval runs (``ConsoleArchiveStore``), in PostgreSQL.
extension PostgresPromptStore {
    public func archiveTemplateVersions(_ versions: [TemplateVersionFiles]) async throws {
        for version in versions {
            try await client.query(
                """
                INSERT INTO templateVersion (template, variant, version, files, firstSeen)
                VALUES (\(version.template.name), \(version.template.variant), \(version.template.version), \(try JSONColumn.encode(version.files)),
                    \(version.firstSeen.timeIntervalSince1970))
                ON CONFLICT DO NOTHING
                """,
                logger: logger
            )
        }
    }

    public func templateVersions(template name: String) async throws -> [TemplateVersionFiles] {
        let rows = try await client.query(
            "SELECT variant, version, files, firstSeen FROM templateVersion WHERE template = \(name) ORDER BY firstSeen, variant",
            logger: logger
        )
        var versions: [TemplateVersionFiles] = []
        for try await (variant, version, files, firstSeen) in rows.decode((String, String, String, Double).self) {
            versions.append(
                TemplateVersionFiles(
                    template: TemplateIdentity(name: name, variant: variant, version: version),
                    files: try JSONColumn.decode([String: String].self, files),
                    firstSeen: Date(timeIntervalSince1970: firstSeen)
                )
            )
        }
        return versions
    }

    public func saveEvalRun(id: String, at: Date, report: Data) async throws {
        try await client.query(
            "INSERT INTO evalRun (id, createdAt, report) VALUES (\(id), \(at.timeIntervalSince1970), \(String(decoding: report, as: UTF8.self)))",
            logger: logger
        )
    }

    public func evalRuns(limit: Int) async throws -> [StoredEvalRun] {
        let rows = try await client.query("SELECT id, createdAt, report FROM evalRun ORDER BY createdAt DESC LIMIT \(limit)", logger: logger)
        var runs: [StoredEvalRun] = []
        for try await (id, createdAt, report) in rows.decode((String, Double, String).self) {
            runs.append(StoredEvalRun(id: id, createdAt: Date(timeIntervalSince1970: createdAt), report: Data(report.utf8)))
        }
        return runs
    }
}
