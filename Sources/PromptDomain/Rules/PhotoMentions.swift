/// Whether a prompt refers to something the app told us about the photo: its place, a label, or its people. Such a
/// prompt feels written for this photo, so the validator puts it first and `eval` reports their share. Matching is on
/// repeat keys: whole words, with a plural `s`, where the language spaces its words; anywhere where it does not
/// ("清水寺で…").
public struct PhotoMentions: Sendable {
    /// Each detail's key as whole words, singular and plural, in UTF-8: " beach " and " beachs ".
    private let patterns: [[UInt8]]

    /// The details of `photo` a prompt in `language` could name.
    public init(_ photo: PhotoMetadata, language: LanguageTag) {
        let keys =
            photo.details.map(PromptNormalizer.repeatKey).filter { !$0.isEmpty }
            + ((photo.peopleCount ?? 0) > 0 ? Self.peopleWords : [])
        patterns =
            CalibratedWordRanges.segmentedLanguages.contains(language.language)
            ? keys.map { Array($0.utf8) } : keys.flatMap { [Array(" \($0) ".utf8), Array(" \($0)s ".utf8)] }
    }

    public var hasDetails: Bool { !patterns.isEmpty }

    /// Whether the prompt whose repeat key is `repeatKey` mentions one of the photo's details.
    public func mentioned(inKey repeatKey: String) -> Bool {
        UTF8Search.containsAny(of: patterns, in: " \(repeatKey) ")
    }

    public func mentioned(in text: String) -> Bool { mentioned(inKey: PromptNormalizer.repeatKey(text)) }

    private static let peopleWords = [
        "who", "with you", "friend", "family", "people", "together", "everyone", "group", "person", "someone", "kid", "children",
        "partner", "guest", "crowd", "team", "loved one",
    ]
}
