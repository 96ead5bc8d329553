import ArgumentParser
import PhotoPrompts

/// `photo-prompts render`: prints exactly what a first request for a photo sends to the model.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the messages and parameters a photo's first request sends to the model."
    )

    @OptionGroup var options: ConfigurationOptions
    @OptionGroup var photoOptions: PhotoOptions

    func run() async throws {
        let (template, request, copy) = try photoOptions.load(with: try await options.load())
        print(PromptPreview.text(template: template, request: request, copy: copy), terminator: "")
    }
}
