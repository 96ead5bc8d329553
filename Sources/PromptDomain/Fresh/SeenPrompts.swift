import Foundation

/// Everything a user has been shown that a new prompt must not repeat: a session's rounds and, when the service
/// keeps one, the user's history. A prompt is seen when its repeat key matches one shown, or when it is a
/// near-duplicate of one (``PromptSignature``).
///
/// It is consulted on every answer, cache hits included, so it does no work it can skip: with nothing seen, nothing
/// is computed; a history's keys are hashed only when there is a history; a prompt that carries its signature (one
/// the model wrote for this service) is not signed again.
public struct SeenPrompts: Sendable {
    /// The language the prompts are in: their signatures are worked out by its rules.
    public let language: LanguageTag
    /// Repeat keys shown in this session, as they are.
    private var keys: Set<String> = []
    /// The history's repeat keys, hashed as the store keeps them (``SeenPrompt/key(_:)``), each with when it was
    /// last shown.
    private var hashedKeys: [UInt64: Date] = [:]
    private var signatures: [PromptSignature] = []

    /// Nothing seen yet, or the user's `history`.
    public init(language: LanguageTag, history: [SeenPrompt] = []) {
        self.language = language
        for record in history {
            hashedKeys[record.key] = max(hashedKeys[record.key] ?? record.shownAt, record.shownAt)
            signatures.append(record.signature)
        }
    }

    /// The prompts with `shownTexts` seen, in `language`.
    public init(language: LanguageTag, shownTexts: [String]) {
        self.init(language: language)
        for text in shownTexts { insert(text: text, repeatKey: PromptNormalizer.repeatKey(text), signature: nil) }
    }

    /// Whether nothing has been seen.
    public var isEmpty: Bool { keys.isEmpty && hashedKeys.isEmpty }

    /// Remembers a prompt as shown; `signature` when the caller has it already.
    public mutating func insert(text: String, repeatKey: String, signature: PromptSignature? = nil) {
        keys.insert(repeatKey)
        signatures.append(signature ?? PromptSignature(text, language: language))
    }

    /// Remembers every prompt of `prompts` as shown.
    public mutating func insert(_ prompts: [Prompt]) {
        for prompt in prompts { insert(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature) }
    }

    /// Remembers every prompt of `prompts` as shown.
    public mutating func insert(_ prompts: [ValidPrompt]) {
        for prompt in prompts { insert(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature) }
    }

    /// Remembers a prompt known only by its repeat key (one a concurrent refresh committed): exact repeats of it are
    /// seen.
    public mutating func insert(repeatKey: String) {
        keys.insert(repeatKey)
    }

    /// Whether the prompt with `text` and `repeatKey` repeats, exactly or nearly, one seen.
    public func contains(text: String, repeatKey: String, signature: PromptSignature? = nil) -> Bool {
        if keys.contains(repeatKey) { return true }
        if !hashedKeys.isEmpty, hashedKeys[SeenPrompt.key(repeatKey)] != nil { return true }
        guard !signatures.isEmpty else { return false }
        let signature = signature ?? PromptSignature(text, language: language)
        return signatures.contains { signature.isNearDuplicate(of: $0) }
    }

    /// Whether `prompt` repeats, exactly or nearly, one seen.
    public func contains(_ prompt: ValidPrompt) -> Bool {
        contains(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature)
    }

    /// When the prompt with `repeatKey` was last shown, by the history: `.distantFuture` for one shown in this
    /// session, `.distantPast` for one the history does not name. What must be shown again goes oldest first.
    public func lastShown(repeatKey: String) -> Date {
        if keys.contains(repeatKey) { return .distantFuture }
        return hashedKeys.isEmpty ? .distantPast : hashedKeys[SeenPrompt.key(repeatKey)] ?? .distantPast
    }

    /// `prompts`, in order, without those seen. For prompts known to differ from one another already: a cache
    /// entry, a session's surplus, a generation's candidates.
    public func unseen(_ prompts: [ValidPrompt]) -> [ValidPrompt] {
        isEmpty ? prompts : prompts.filter { !contains($0) }
    }

    /// `prompts`, in order, without those seen and without any that repeats an earlier one of them, each carrying its
    /// signature.
    public func fresh(_ prompts: [ValidPrompt]) -> [ValidPrompt] {
        var seen = self
        var fresh: [ValidPrompt] = []
        for var prompt in prompts {
            prompt.signature = prompt.signature ?? PromptSignature(prompt.text, language: language)
            guard !seen.contains(prompt) else { continue }
            fresh.append(prompt)
            seen.insert(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature)
        }
        return fresh
    }
}
