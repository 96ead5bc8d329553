/// One writing prompt shown to the user.
public struct Prompt: Codable, Sendable, Equatable {
    /// A stable id, unique within the service, that later feedback can refer to.
    public var id: String
    /// The normalised text.
    public var text: String
    /// How many words the text has, by ``WordCounter``.
    public var wordCount: Int
    /// Whether this prompt came from the model, the cache or the fallbacks.
    public var source: PromptSource

    /// Creates a prompt.
    public init(id: String, text: String, wordCount: Int, source: PromptSource) {
        self.id = id
        self.text = text
        self.wordCount = wordCount
        self.source = source
    }

    package enum CodingKeys: String, CodingKey {
        case id, text, source
        case wordCount = "word_count"
    }
}
