import ArgumentParser
import Logging
import PhotoPrompts
import PromptGeneration
import PromptStores

/// `photo-prompts generate`: runs the whole pipeline once for a photo against the configured backends.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Run the pipeline once for a photo: kept prompts, rejected candidates with reasons, timing and source."
    )

    @OptionGroup var options: ConfigurationOptions
    @OptionGroup var photoOptions: PhotoOptions

    func run() async throws {
        let configuration = try await options.load()
        let plan = try photoOptions.plan(with: configuration)
        // A throwaway in-memory store: a one-off run must neither read nor fill the service's cache.
        let generator = makeGenerator(configuration, cache: try InMemoryDatabase().open(), dependencies: .live)
        let input = PromptGenerator.Input.oneOff(plan)
        // Warnings too: a backend's failure, with the provider's own message, is what an operator runs this to see.
        var logger = Logger(label: "photo-prompts") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let generation = await generator.generate(input, logger: logger)
        print(Self.report(generation), terminator: "")
    }

    static func report(_ generation: Generation) -> String {
        var lines = ["source: \(generation.source.rawValue)" + (generation.fallbackReason.map { " (\($0.rawValue))" } ?? "")]
        if let backend = generation.candidates.first?.answeredBy ?? nil {
            lines.append("backend: \(backend.provider)/\(backend.model)")
        }
        lines.append("kept:")
        lines += generation.candidates.map { "  \($0.text) [\($0.wordCount) words]" }
        lines.append("rejected:")
        lines += generation.rejected.map { "  \"\($0.candidate)\": \($0.reason)" }
        if let usage = generation.usage {
            lines.append("tokens: \(usage.prompt) prompt, \(usage.completion) completion")
        }
        lines.append("timing: \(generation.timing.headerValue)")
        return lines.joined(separator: "\n") + "\n"
    }
}
