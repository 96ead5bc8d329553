import Foundation
import GRDB
import PromptDomain

/// Template versions' files and eval runs (``ConsoleArchiveStore``), in SQLite.
extension SQLitePromptStore {
    public func archiveTemplateVersions(_ versions: [TemplateVersionFiles]) async throws {
        guard !versions.isEmpty else { return }
        try await writer.write { db in
            for version in versions {
                try db.execute(
                    sql: """
                        INSERT INTO templateVersion (template, variant, version, files, firstSeen) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT DO NOTHING
                        """,
                    arguments: [
                        version.template.name, version.template.variant, version.template.version, try JSONColumn.encode(version.files),
                        version.firstSeen.timeIntervalSince1970,
                    ]
                )
            }
        }
    }

    public func templateVersions(template name: String) async throws -> [TemplateVersionFiles] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT variant, version, files, firstSeen FROM templateVersion WHERE template = ? ORDER BY firstSeen, variant",
                arguments: [name]
            ).map { try StoredValue.templateVersion(($0[0], $0[1], $0[2], $0[3]), of: name) }
        }
    }

    public func saveEvalRun(id: String, at: Date, report: Data) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO evalRun (id, createdAt, report) VALUES (?, ?, ?)",
                arguments: [id, at.timeIntervalSince1970, String(decoding: report, as: UTF8.self)]
            )
        }
    }

    public func evalRuns(limit: Int) async throws -> [StoredEvalRun] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, createdAt, report FROM evalRun ORDER BY createdAt DESC LIMIT ?", arguments: [limit]).map { row in
                StoredEvalRun(id: row["id"], createdAt: Date(timeIntervalSince1970: row["createdAt"]), report: Data((row["report"] as String).utf8))
            }
        }
    }
}
