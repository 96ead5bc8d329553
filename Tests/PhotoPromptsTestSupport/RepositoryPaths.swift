import Configuration
import Foundation
import PhotoPrompts

/// The repository's root folder, found from this file's own path.
public let repositoryDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// Where the repository's own `prompts/` folder is, so tests render the templates operators edit.
public let repositoryPromptsDirectory = repositoryDirectory + "/prompts"

/// Reads an ``AppConfiguration`` from `environment` exactly as the executable reads environment variables.
public func configuration(_ environment: [String: String]) throws -> AppConfiguration {
    try AppConfiguration(reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
}

/// The repository's `console/` folder: the operators' console's page, script and style.
public let repositoryConsoleDirectory = repositoryDirectory + "/console"
