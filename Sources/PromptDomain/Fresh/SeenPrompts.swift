/// Everything a user has been shown that a new prompt must not repeat: a session's rounds and, when the service
/// keeps one, the user's history. A prompt is seen when its repeat key matches one shown, or when it is a
/// near-duplicate of one (``PromptSignature``).
public struct SeenPrompts: Sendable {
    /// The language the prompts are in: their signatures are worked out by its rules.
    public let language: LanguageTag
    private var keys: Set<String> = []
    private var signatures: [PromptSignature] = []

    /// Nothing seen yet, or the user's `history`.
    public init(language: LanguageTag, history: [SeenPrompt] = []) {
        self.language = language
        for record in history {
            keys.insert(record.key)
            signatures.append(record.signature)
        }
    }

    /// The prompts with `shownTexts` seen, in `language`.
    public init(language: LanguageTag, shownTexts: [String]) {
        self.init(language: language)
        for text in shownTexts { insert(text: text, repeatKey: PromptNormalizer.repeatKey(text)) }
    }

    /// How many prompts are remembered.
    public var count: Int { signatures.count }

    /// Remembers a prompt as shown.
    public mutating func insert(text: String, repeatKey: String) {
        keys.insert(SeenPrompt.key(repeatKey))
        signatures.append(PromptSignature(text, language: language))
    }

    /// Remembers every prompt of `prompts` as shown.
    public mutating func insert(_ prompts: [Prompt]) {
        for prompt in prompts { insert(text: prompt.text, repeatKey: prompt.repeatKey) }
    }

    /// Remembers every prompt of `prompts` as shown.
    public mutating func insert(_ prompts: [ValidPrompt]) {
        for prompt in prompts { insert(text: prompt.text, repeatKey: prompt.repeatKey) }
    }

    /// Remembers a prompt known only by its repeat key (one a concurrent refresh committed): exact repeats of it are
    /// seen.
    public mutating func insert(repeatKey: String) {
        keys.insert(SeenPrompt.key(repeatKey))
    }

    /// Whether the prompt with `text` and `repeatKey` repeats, exactly or nearly, one seen.
    public func contains(text: String, repeatKey: String) -> Bool {
        if keys.contains(SeenPrompt.key(repeatKey)) { return true }
        guard !signatures.isEmpty else { return false }
        let signature = PromptSignature(text, language: language)
        return signatures.contains { signature.isNearDuplicate(of: $0) }
    }

    /// Whether `prompt` repeats, exactly or nearly, one seen.
    public func contains(_ prompt: ValidPrompt) -> Bool {
        contains(text: prompt.text, repeatKey: prompt.repeatKey)
    }

    /// `prompts`, in order, without those seen and without any that repeats an earlier one of them.
    public func fresh(_ prompts: [ValidPrompt]) -> [ValidPrompt] {
        var seen = self
        var fresh: [ValidPrompt] = []
        for prompt in prompts where !seen.contains(prompt) {
            fresh.append(prompt)
            seen.insert(text: prompt.text, repeatKey: prompt.repeatKey)
        }
        return fresh
    }
}
