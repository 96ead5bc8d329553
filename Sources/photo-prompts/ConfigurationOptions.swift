import ArgumentParser
import Configuration
import PhotoPrompts

/// The `--config` option every subcommand shares, and reading the configuration with it.
struct ConfigurationOptions: ParsableArguments {
    @Option(help: "A JSON configuration file; environment variables override it. Ignored when missing.")
    var config = "config/photo-prompts.json"

    /// Environment variables over the file over defaults.
    ///
    /// - Throws: ``StartupFailure`` with one line naming the key at fault.
    func load() async throws -> AppConfiguration {
        do {
            let reader = ConfigReader(providers: [
                EnvironmentVariablesProvider(
                    secretsSpecifier: .specific(["LLM_API_KEY", "LLM_2_API_KEY", "LLM_3_API_KEY", "LLM_4_API_KEY", "ADMIN_API_KEY"])
                ),
                try await FileProvider<JSONSnapshot>(filePath: .init(config), allowMissing: true),
            ])
            return try AppConfiguration(reader: reader)
        } catch let error as ConfigurationError {
            throw StartupFailure(error.description)
        }
    }
}

/// A start-up problem, printed as one line with exit code 1.
struct StartupFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
