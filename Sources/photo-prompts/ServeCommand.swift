import ArgumentParser
import Foundation
import Logging
import PhotoPrompts
import PromptDomain

/// `photo-prompts serve`: runs the HTTP service until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the HTTP API (the default).")

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let configuration = try await options.load()
        let level = configuration.logLevel
        let format = configuration.logFormat
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                format == .text ? StreamLogHandler.standardOutput(label: label) : StructuredLogHandler(label: label, format: format)
            handler.logLevel = level
            return handler
        }
        do {
            var dependencies = AppDependencies.live
            if let export = try TraceExport.fromEnvironment(ProcessInfo.processInfo.environment) {
                (dependencies.tracer, dependencies.traceExporter) = (export.tracer, export.exporter)
            }
            let app = try await buildApplication(configuration, dependencies: dependencies, logger: Logger(label: "photo-prompts"))
            try await app.runService()
        } catch let error as TemplateError {
            throw StartupFailure("Invalid configuration: PROMPTS_DIRECTORY: \(configuration.promptsDirectory)/\(error)")
        }
    }
}
