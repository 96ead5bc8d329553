/// Whether a prompt refers to something the app told us about the photo: its place, a label, or its people.
///
/// A prompt that names the beach or "who was with you" feels written for this photo; one that could be about any
/// photo does not. Matching is on repeat keys (case and punctuation ignored), whole words, with a plural `s`.
enum MetadataMentions {
    /// Whether the photo has anything a prompt could mention.
    static func hasMentionable(_ photo: PhotoMetadata) -> Bool {
        !placeKeys(photo).isEmpty || !(photo.labels ?? []).isEmpty || (photo.peopleCount ?? 0) > 0
    }

    /// Whether `text` mentions the photo's place, one of its labels, or (when it has people) the people.
    static func mentions(_ text: String, photo: PhotoMetadata) -> Bool {
        let padded = " \(PromptNormalizer.repeatKey(text)) "
        func contains(_ key: String) -> Bool { !key.isEmpty && (padded.contains(" \(key) ") || padded.contains(" \(key)s ")) }
        if placeKeys(photo).contains(where: contains) { return true }
        if (photo.labels ?? []).map(PromptNormalizer.repeatKey).contains(where: contains) { return true }
        if (photo.peopleCount ?? 0) > 0, peopleWords.contains(where: contains) { return true }
        return false
    }

    private static func placeKeys(_ photo: PhotoMetadata) -> [String] {
        guard let location = photo.location else { return [] }
        return [location.name, location.locality, location.country].compactMap { $0 }.map(PromptNormalizer.repeatKey).filter { !$0.isEmpty }
    }

    private static let peopleWords = [
        "who", "with you", "friend", "family", "people", "together", "everyone", "group", "person", "someone", "kid", "children",
        "partner", "guest", "crowd", "team", "loved one",
    ]
}
