/// Whether a prompt refers to something the app told us about the photo: its place, a label, or its people.
///
/// A prompt that names the beach or "who was with you" feels written for this photo; one that could be about any
/// photo does not. The validator puts such prompts first, so they are the ones a user sees, and `eval` reports
/// their share. Matching is on repeat keys (case and punctuation ignored), whole words, with a plural `s`.
public struct PhotoMentions: Sendable {
    private let keys: [String]

    /// The details of `photo` a prompt could name.
    public init(_ photo: PhotoMetadata) {
        let place = [photo.location?.name, photo.location?.locality, photo.location?.country].compactMap { $0 }
        keys =
            (place + (photo.labels ?? [])).map(PromptNormalizer.repeatKey).filter { !$0.isEmpty }
            + ((photo.peopleCount ?? 0) > 0 ? Self.peopleWords : [])
    }

    /// Whether the photo has anything a prompt could mention.
    public var hasDetails: Bool { !keys.isEmpty }

    /// Whether the prompt whose repeat key is `repeatKey` mentions one of the photo's details.
    public func mentioned(inKey repeatKey: String) -> Bool {
        let padded = " \(repeatKey) "
        return keys.contains { padded.contains(" \($0) ") || padded.contains(" \($0)s ") }
    }

    /// Whether `text` mentions one of the photo's details.
    public func mentioned(in text: String) -> Bool { mentioned(inKey: PromptNormalizer.repeatKey(text)) }

    private static let peopleWords = [
        "who", "with you", "friend", "family", "people", "together", "everyone", "group", "person", "someone", "kid", "children",
        "partner", "guest", "crowd", "team", "loved one",
    ]
}
