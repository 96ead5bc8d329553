import Foundation

/// The cache key: a hash of everything that shapes the model's answer.
///
/// Missing a parameter here would serve one photo's prompts for another, so every input the template or the
/// backend sees is in it: normalised metadata, locale, template name and version, provider and model, and round.
struct CacheKey: Encodable {
    /// Bumped when the key's shape changes, so old entries are never misread.
    let schema = 1
    let photo: PhotoMetadata
    let locale: String
    let template: TemplateIdentity
    let backend: BackendIdentity
    let round: Int

    /// The hex SHA-256 of the key's canonical JSON (sorted keys).
    var hashed: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and arrays cannot fail.
        let json = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return ContentHash.sha256Hex(json)
    }
}
