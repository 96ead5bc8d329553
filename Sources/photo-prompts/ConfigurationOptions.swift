import ArgumentParser
import Configuration
import Foundation
import PhotoPrompts

/// The `--config` option every subcommand shares, and reading the configuration with it.
struct ConfigurationOptions: ParsableArguments {
    /// The file read when `--config` is not given; it may be missing.
    static let defaultFile = "config/photo-prompts.json"

    @Option(help: "A JSON configuration file; environment variables override it. (default: \(defaultFile), skipped when missing)")
    var config: String?

    /// Environment variables over the file over defaults.
    /// - Throws: ``StartupFailure`` with one line naming the key or the file at fault.
    func load() async throws -> AppConfiguration {
        let file = config ?? Self.defaultFile
        // A file named on the command line must be there: starting on defaults instead would hide the mistake.
        if config != nil || FileManager.default.fileExists(atPath: file) {
            try Self.checkJSON(at: file)
        }
        do {
            let reader = ConfigReader(providers: [
                EnvironmentVariablesProvider(
                    secretsSpecifier: .specific(["LLM_API_KEY", "LLM_2_API_KEY", "LLM_3_API_KEY", "LLM_4_API_KEY", "ADMIN_API_KEY"])
                ),
                try await FileProvider<JSONSnapshot>(filePath: .init(file), allowMissing: true),
            ])
            return try AppConfiguration(reader: reader)
        } catch let error as ConfigurationError {
            throw StartupFailure(error.description)
        }
    }

    /// Reads `path` as JSON, so a missing, unreadable or malformed file is one line naming the file and the place.
    static func checkJSON(at path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw StartupFailure("Invalid configuration: --config \(path) \(reason)")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Foundation puts the place ("around line 3, column 5") in the debug description.
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw StartupFailure("Invalid configuration: \(path) is not valid JSON: \(detail)")
        }
        guard object is [String: Any] else { throw StartupFailure("Invalid configuration: \(path) must hold one JSON object") }
    }
}

/// A start-up problem, printed as one line with exit code 1.
struct StartupFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
