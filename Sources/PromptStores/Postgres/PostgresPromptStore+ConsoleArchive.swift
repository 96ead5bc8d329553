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
        return try await rows.decodeAll((String, String, String, Double).self).map { try StoredValue.templateVersion($0, of: name) }
    }

    public func saveEvalRun(id: String, at: Date, report: Data) async throws {
        try await client.query(
            "INSERT INTO evalRun (id, createdAt, report) VALUES (\(id), \(at.timeIntervalSince1970), \(String(decoding: report, as: UTF8.self)))",
            logger: logger
        )
    }

    public func evalRuns(limit: Int) async throws -> [StoredEvalRun] {
        let rows = try await client.query("SELECT id, createdAt, report FROM evalRun ORDER BY createdAt DESC LIMIT \(limit)", logger: logger)
        return try await rows.decodeAll((String, Double, String).self).map { id, createdAt, report in
            StoredEvalRun(id: id, createdAt: Date(timeIntervalSince1970: createdAt), report: Data(report.utf8))
        }
    }
}
