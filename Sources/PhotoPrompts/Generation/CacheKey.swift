import Foundation

/// The cache key: a hash of everything that shapes the model's answer.
///
/// Missing a parameter here would serve one photo's prompts for another, so every input the template or the
/// backends see is in it: normalised metadata, locale, template name and version, every backend's provider and
/// model in chain order, the sampling parameters, the round, and the photo's age as templates see it.
struct CacheKey: Encodable {
    /// Bumped when the key's shape changes, so old entries are never misread.
    let schema = 3
    let photo: PhotoMetadata
    let locale: String
    let template: TemplateIdentity
    let backends: [BackendIdentity]
    let parameters: ModelParameters
    let candidateCount: Int
    let round: Int
    /// `is_recent` and `years_ago` change with today's date, not with the photo: a week-old answer saying "today"
    /// must not be served once the photo is no longer recent.
    let age: Age?

    struct Age: Encodable {
        let isRecent: Bool
        let yearsAgo: Int

        init(_ moment: PhotoMoment) {
            isRecent = moment.isRecent
            yearsAgo = moment.yearsAgo
        }
    }

    /// The hex SHA-256 of the key's canonical JSON (sorted keys).
    var hashed: String {
        // Encoding plain strings, numbers and arrays cannot fail. The bytes are hashed as they are.
        let json = (try? Self.encoder.encode(self)) ?? Data()
        return ContentHash.sha256Hex(json)
    }

    /// Shared: an encoder keeps no state between calls, and making one per request showed up in profiles.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
