/// The prompts shown when the model cannot supply enough good ones.
///
/// The product's own copy (``ProductCopy``, from `prompts/copy/<tag>.json`), after any of the template's own that
/// fit the photo; exempt from the word rule.
public struct FallbackPrompts: Sendable, Equatable {
    /// How many prompts an answer carries, from the product spec.
    public static let promptsPerAnswer = 3

    /// The prompts, in the order they are used.
    public let texts: [String]
    /// Each text's repeat key, worked out once when the copy is loaded.
    private let repeatKeys: [String]

    /// Creates a set of fallbacks; there must be at least ``promptsPerAnswer``.
    public init(texts: [String]) throws(TemplateError) {
        guard texts.count >= Self.promptsPerAnswer else {
            throw TemplateError(file: "copy", message: "needs at least \(Self.promptsPerAnswer) prompts, has \(texts.count)")
        }
        self.init(checked: texts)
    }

    /// These fallbacks after `texts`, e.g. a template's own; duplicates of later ones are dropped.
    public func preceded(by texts: [String]) -> FallbackPrompts {
        guard !texts.isEmpty else { return self }
        var seen = Set<String>()
        var combined = (texts + self.texts).filter { seen.insert(PromptNormalizer.repeatKey($0)).inserted }
        // Cannot drop below promptsPerAnswer: the defaults alone have that many distinct lines or more.
        if combined.count < Self.promptsPerAnswer { combined = self.texts }
        return FallbackPrompts(checked: combined)
    }

    private init(checked texts: [String]) {
        self.texts = texts
        self.repeatKeys = texts.map(PromptNormalizer.repeatKey)
    }

    /// Up to `count` fallbacks, preferring those whose repeat key is not in `alreadyShown`.
    ///
    /// When every fallback has been shown already, shown ones are reused: the app always gets something to write from.
    public func pick(_ count: Int, avoiding alreadyShown: Set<String>) -> [(text: String, repeatKey: String)] {
        let lines = zip(texts, repeatKeys).map { (text: $0, repeatKey: $1) }
        let unseen = lines.filter { !alreadyShown.contains($0.repeatKey) }
        let seen = lines.filter { alreadyShown.contains($0.repeatKey) }
        return Array((unseen + seen).prefix(count))
    }
}
