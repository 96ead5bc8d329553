import ArgumentParser
import Foundation
import Logging
import PhotoPrompts

/// `photo-prompts generate`: runs the whole pipeline once for a photo against the configured backends.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Run the pipeline once for a photo: kept prompts, rejected candidates with reasons, timing and source."
    )

    @OptionGroup var options: ConfigurationOptions

    @Option(help: "The template folder in PROMPTS_DIRECTORY (default: PROMPTS_TEMPLATE).")
    var template: String?

    @Option(help: "A JSON file: a request body with \"photo\", or a bare photo object.")
    var photo: String

    func run() async throws {
        let configuration = try await options.load()
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: photo))
        } catch {
            throw ValidationError("cannot read \(photo): \(error.localizedDescription)")
        }
        let generation: Generation
        do {
            let template = try PromptTemplate.load(name: template ?? configuration.templateName, from: configuration.promptsDirectory)
            let request = try PromptPreview.request(fromJSON: data)
            // A throwaway in-memory store: a one-off run must neither read nor fill the service's cache.
            let generator = makeGenerator(configuration, template: template, store: try SQLitePromptStore.inMemory(), dependencies: .live)
            let input = PromptGenerator.Input(photo: request.photo, locale: request.locale, round: 0, alreadyShown: [], readsCache: false)
            var logger = Logger(label: "photo-prompts")
            logger.logLevel = .error
            generation = await generator.generate(input, logger: logger)
        } catch let error as TemplateError {
            throw StartupFailure("\(error)")
        } catch let error as APIError {
            throw StartupFailure("\(photo): \(error.message)")
        }
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
        lines.append("timing: \(generation.timing.headerValue)")
        return lines.joined(separator: "\n") + "\n"
    }
}
