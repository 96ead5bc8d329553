/// The two messages sent to the model.
public struct RenderedPrompt: Sendable, Equatable {
    /// The system message: instructions.
    public var system: String
    /// The user message: the photo's metadata, as delimited data.
    public var user: String

    package init(system: String, user: String) {
        self.system = system
        self.user = user
    }
}
