import ArgumentParser

/// `photo-prompts`: the service's command line. `serve` is the default.
@main
struct PhotoPromptsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo-prompts",
        abstract: "AI writing prompts for a photo-journaling app.",
        subcommands: [ServeCommand.self, RenderCommand.self, GenerateCommand.self, EvalCommand.self, APIKeyCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
