import PromptDomain

/// The prompts shown when the model cannot supply enough good ones: the product's copy (``ProductCopy``), after any
/// of the template's own that fit the photo; exempt from the word rule.
public struct FallbackPrompts: Sendable, Equatable {
    /// The prompts, in the order they are used.
    public let texts: [String]
    /// Each text's repeat key, worked out once when the copy is loaded.
    private let repeatKeys: [String]

    public init(texts: [String]) throws(TemplateError) {
        guard texts.count >= ProductSpec.promptsPerAnswer else {
            throw TemplateError(file: "copy", message: "needs at least \(ProductSpec.promptsPerAnswer) prompts, has \(texts.count)")
        }
        self.init(texts: texts, repeatKeys: texts.map(PromptNormalizer.repeatKey))
    }

    /// These fallbacks after `texts`, e.g. a template's own; duplicates of later ones are dropped. This runs for
    /// every English answer, so only the new texts' keys are worked out: the copy's own are kept from its load.
    public func preceded(by texts: [String]) -> FallbackPrompts {
        guard !texts.isEmpty else { return self }
        var seen = Set<String>()
        let lines = (Array(zip(texts, texts.map(PromptNormalizer.repeatKey))) + Array(zip(self.texts, repeatKeys)))
            .filter { seen.insert($0.1).inserted }
        // Cannot drop below ProductSpec.promptsPerAnswer: the defaults alone have that many distinct lines or more.
        guard lines.count >= ProductSpec.promptsPerAnswer else { return self }
        return FallbackPrompts(texts: lines.map(\.0), repeatKeys: lines.map(\.1))
    }

    private init(texts: [String], repeatKeys: [String]) {
        self.texts = texts
        self.repeatKeys = repeatKeys
    }

    /// Up to `count` fallbacks, in order, preferring those the user has not `seen`, exactly or nearly.
    /// When every fallback has been shown already, shown ones are reused, those shown longest ago first: the app
    /// always gets something to write from, and a user who meets the copy day after day goes round all of it.
    public func pick(_ count: Int, avoiding seen: SeenPrompts) -> [(text: String, repeatKey: String)] {
        let lines = zip(texts, repeatKeys).map { (text: $0, repeatKey: $1) }
        var unseen: [(text: String, repeatKey: String)] = []
        var met: [(text: String, repeatKey: String)] = []
        for line in lines {
            guard unseen.count < count else { break }
            if seen.contains(text: line.text, repeatKey: line.repeatKey) { met.append(line) } else { unseen.append(line) }
        }
        guard unseen.count < count else { return unseen }
        // Stable: lines shown at the same time (or never named by the history) keep the copy's order.
        let reused = met.enumerated().sorted { left, right in
            let (leftShown, rightShown) = (seen.lastShown(repeatKey: left.element.repeatKey), seen.lastShown(repeatKey: right.element.repeatKey))
            return leftShown != rightShown ? leftShown < rightShown : left.offset < right.offset
        }.map(\.element)
        return Array((unseen + reused).prefix(count))
    }
}
