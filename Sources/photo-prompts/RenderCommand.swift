import ArgumentParser
import Foundation
import PhotoPrompts

/// `photo-prompts render`: prints exactly what a first request for a photo sends to the model.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the messages and parameters a photo's first request sends to the model."
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
        do {
            let template = try PromptTemplate.load(name: template ?? configuration.templateName, from: configuration.promptsDirectory)
            let request = try PromptPreview.request(fromJSON: data)
            print(PromptPreview.text(template: template, request: request), terminator: "")
        } catch let error as TemplateError {
            throw StartupFailure("\(error)")
        } catch let error as APIError {
            throw StartupFailure("\(photo): \(error.message)")
        }
    }
}
