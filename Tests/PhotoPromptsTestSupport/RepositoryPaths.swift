import Configuration
import Foundation
import PhotoPrompts

/// Where the repository's own `prompts/` folder is, so tests render the templates operators edit.
public let repositoryPromptsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("prompts").path

/// Reads an ``AppConfiguration`` from `environment` exactly as the executable reads environment variables.
public func configuration(_ environment: [String: String]) throws -> AppConfiguration {
    try AppConfiguration(reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
}
