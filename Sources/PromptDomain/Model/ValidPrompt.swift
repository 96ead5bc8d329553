/// A candidate that passed every rule.
public struct ValidPrompt: Codable, Sendable, Equatable {
    /// The normalised text.
    public let text: String
    public var wordCount: Int
    /// The backend that wrote it; kept with cached and surplus prompts so answers can name it.
    public var answeredBy: BackendIdentity?
    /// The key that identifies repeats of this prompt. Worked out once, here, and kept with the prompt: every cache
    /// hit, refresh and stored round compares or stores it. Not stored in JSON.
    public let repeatKey: String
    /// Its near-duplicate signature, once worked out for its language (``SeenPrompts/fresh(_:)``), so a cache entry
    /// kept in memory is not signed again on every hit. Not stored in JSON, and not part of equality.
    public var signature: PromptSignature?

    public init(text: String, wordCount: Int, answeredBy: BackendIdentity? = nil) {
        self.text = text
        self.wordCount = wordCount
        self.answeredBy = answeredBy
        self.repeatKey = PromptNormalizer.repeatKey(text)
    }

    package init(text: String, wordCount: Int, repeatKey: String) {
        self.text = text
        self.wordCount = wordCount
        self.repeatKey = repeatKey
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            text: try container.decode(String.self, forKey: .text),
            wordCount: try container.decode(Int.self, forKey: .wordCount),
            answeredBy: try container.decodeIfPresent(BackendIdentity.self, forKey: .answeredBy)
        )
    }

    /// The stored fields, camelCase in the columns (``jsonColumn(_:)``), which ``SnakeCaseJSON/decoder`` reads as is.
    private enum CodingKeys: CodingKey {
        case text, wordCount, answeredBy
    }

    public static func == (left: ValidPrompt, right: ValidPrompt) -> Bool {
        left.text == right.text && left.wordCount == right.wordCount && left.answeredBy == right.answeredBy && left.repeatKey == right.repeatKey
    }
}
