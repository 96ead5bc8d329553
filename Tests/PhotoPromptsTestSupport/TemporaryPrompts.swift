import Foundation
import Testing

/// A copy of the repository's `prompts/` in a temporary folder, for tests that edit templates.
package struct TemporaryPrompts: Sendable {
    package let directory: String

    /// Copies `prompts/` (without the fixtures) to a fresh folder.
    package init() throws {
        let target = scratchPath("prompts")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for entry in try FileManager.default.contentsOfDirectory(atPath: repositoryPromptsDirectory) where entry != "fixtures" {
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: repositoryPromptsDirectory).appendingPathComponent(entry),
                to: target.appendingPathComponent(entry)
            )
        }
        directory = target.path
    }

    /// Writes `contents` to `path` inside the copy, creating folders as needed.
    package func write(_ path: String, _ contents: String) throws {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The text of `path` inside the copy.
    package func read(_ path: String) throws -> String {
        try String(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(path), encoding: .utf8)
    }

    /// Adds `lines` to the end of `path` inside the copy, each on a line of its own.
    package func append(_ path: String, lines: [String]) throws {
        try write(path, try read(path) + "\n" + lines.joined(separator: "\n") + "\n")
    }

    /// Adds template `name` as a copy of `photo-journal`, with `marker` in its system part so its version differs.
    package func addVariant(_ name: String, marker: String) throws {
        try write("\(name)/system.mustache", try read("photo-journal/system.mustache") + "\n\(marker)\n")
        try write("\(name)/user.mustache", try read("photo-journal/user.mustache"))
        try write("\(name)/settings.json", try read("photo-journal/settings.json"))
    }

    /// Sets `photo-journal`'s variants, keeping its other settings.
    package func setVariants(_ weights: [String: Int]) throws {
        let path = "photo-journal/settings.json"
        var settings = try JSONSerialization.jsonObject(with: Data(try read(path).utf8)) as? [String: Any] ?? [:]
        settings["variants"] = weights
        try write(path, String(decoding: try JSONSerialization.data(withJSONObject: settings, options: [.sortedKeys]), as: UTF8.self))
    }
}

/// The admin key tests configure.
package let testAdminKey = "test-admin-key-0123456789"

extension ServiceClient {
    /// Sends an admin request with the test key (or `key`, when given).
    package func admin(_ method: String, _ path: String, body: String? = nil, key: String? = testAdminKey) async throws -> Reply {
        var headers: [(name: String, value: String)] = []
        if let key { headers.append(("Authorization", "Bearer \(key)")) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try await send(method, "/admin\(path)", body: body, headers: headers)
    }

    /// `GET /metrics` with the test key, as text.
    package func metricsText() async throws -> String {
        let scrape = try await send("GET", "/metrics", headers: [("Authorization", "Bearer \(testAdminKey)")])
        return String(decoding: scrape.body, as: UTF8.self)
    }

    /// The first entry (most requests) of `GET /admin/stats` for `photo-journal` over the last hour.
    package func versionStats() async throws -> JSONLookup {
        let stats = try await admin("GET", "/stats?template=photo-journal&window=1h")
        return try #require(stats.lookup["versions"].array.first.map(JSONLookup.init))
    }

    /// Sends feedback on a prompt.
    package func feedback(_ sessionID: String, promptID: String, action: String = "selected") async throws -> Reply {
        try await post("/v1/sessions/\(sessionID)/feedback", json: #"{"prompt_id": "\#(promptID)", "action": "\#(action)"}"#)
    }
}

/// `base` with the admin API on and templates read from `prompts`.
package func operatorEnvironment(prompts: TemporaryPrompts, base: [String: String] = baseEnvironment()) -> [String: String] {
    var environment = base
    environment["PROMPTS_DIRECTORY"] = prompts.directory
    environment["ADMIN_API_KEY"] = testAdminKey
    environment["PROMPTS_WATCH_INTERVAL"] = "0"
    return environment
}

/// The environment of a test that sends a burst of requests at once and is not about deadlines: the production
/// `LLM_TIMEOUT` (15 s), so that the fast layer's parallel load on two cores cannot turn a slow answer into a 503.
package func burstEnvironment() -> [String: String] {
    baseEnvironment().merging(["LLM_TIMEOUT": "15"]) { $1 }
}

/// A user part whose third line closes a section that was never opened: the broken edit hot reload must refuse.
package let brokenUserPart = "<photo>\n{{photo.place}}\n{{/never_opened}}\n</photo>\n"
