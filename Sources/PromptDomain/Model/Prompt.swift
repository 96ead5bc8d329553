/// One writing prompt shown to the user.
public struct Prompt: Codable, Sendable, Equatable {
    /// A stable id, unique within the service, that later feedback can refer to.
    public var id: String
    /// The normalised text.
    public var text: String
    /// How many words the text has, by ``WordCounter``.
    public var wordCount: Int
    public var source: PromptSource
    /// The key that identifies repeats of this prompt (``PromptNormalizer/repeatKey(_:)``), carried from the
    /// candidate it was made from so the stored round does not work it out again. Not in the JSON.
    public var repeatKey: String
    /// Its near-duplicate signature, when the candidate it was made from had one: the user's history stores it. Not
    /// in the JSON, and not part of equality.
    public var signature: PromptSignature?
    /// The name of its angle (``Angles``), when it has one: for the stats. Not in the JSON.
    public var angle: String?
    /// Which of its signature's terms are its photo's own words (``SeenPrompt/photoTerms``), worked out when the
    /// answer was ordered against the photo: the user's history keeps it. Not in the JSON.
    public var photoTerms: UInt32?

    /// Creates a prompt; `repeatKey` is worked out from `text` unless the caller has it already.
    public init(
        id: String,
        text: String,
        wordCount: Int,
        source: PromptSource,
        repeatKey: String? = nil,
        signature: PromptSignature? = nil
    ) {
        self.id = id
        self.text = text
        self.wordCount = wordCount
        self.source = source
        self.repeatKey = repeatKey ?? PromptNormalizer.repeatKey(text)
        self.signature = signature
    }

    public static func == (left: Prompt, right: Prompt) -> Bool {
        left.id == right.id && left.text == right.text && left.wordCount == right.wordCount && left.source == right.source
            && left.repeatKey == right.repeatKey
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            text: try container.decode(String.self, forKey: .text),
            wordCount: try container.decode(Int.self, forKey: .wordCount),
            source: try container.decode(PromptSource.self, forKey: .source)
        )
    }

    /// The four fields on the wire: `repeatKey` is worked out again from the text, and the rest are never sent.
    private enum CodingKeys: CodingKey {
        case id, text, wordCount, source
    }
}
