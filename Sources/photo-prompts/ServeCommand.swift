import ArgumentParser
import Configuration
import Foundation
import Logging
import PhotoPrompts

/// `photo-prompts serve`: runs the HTTP service until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the HTTP API (the default).")

    @Option(help: "A JSON configuration file; environment variables override it. Ignored when missing.")
    var config = "config/photo-prompts.json"

    func run() async throws {
        do {
            let reader = ConfigReader(providers: [
                EnvironmentVariablesProvider(secretsSpecifier: .specific(["LLM_API_KEY"])),
                try await FileProvider<JSONSnapshot>(filePath: .init(config), allowMissing: true),
            ])
            let configuration = try AppConfiguration(reader: reader)
            let level = configuration.logLevel
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardOutput(label: label)
                handler.logLevel = level
                return handler
            }
            let logger = Logger(label: "photo-prompts")
            let app = try await buildApplication(configuration, dependencies: .live, logger: logger)
            try await app.runService()
        } catch let error as ConfigurationError {
            throw StartupFailure(error.description)
        } catch let error as TemplateError {
            throw StartupFailure("Invalid configuration: PROMPTS_DIRECTORY: \(error)")
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
