import Foundation
import PromptDomain

extension PromptRequest {
    public static let defaultLocale = LanguageTag(locale: "en-US")

    /// Bounds from the API contract.
    enum Limits {
        static let labels = 32
        static let labelLength = 64
        static let captionLength = 500
        static let textLength = 200
        static let userIDLength = 128
        static let localeLength = 35
        static let sourceLength = 32
        static let peopleCount = 0...10_000
    }

    /// The request with every string cleaned and every bound checked.
    /// - Throws: ``APIError`` (400 `invalid_request`) naming the first field that is out of bounds.
    public func validated() throws(APIError) -> ValidatedPromptRequest {
        let userID = try Self.clean(userID, field: "user_id", maxLength: Limits.userIDLength)
        // Kept canonical ("en_US" and "EN-us" are "en-US"), so the cache, session and template see one spelling.
        var tag = Self.defaultLocale
        if let locale, !locale.isEmpty {
            guard let parsed = LanguageTag(locale) else {
                throw .invalidField(
                    "locale",
                    "must be a BCP 47 language tag of at most \(Limits.localeLength) characters, such as en-US or zh-Hant-TW"
                )
            }
            tag = parsed
        }
        return ValidatedPromptRequest(userID: userID, locale: tag, photo: try Self.validated(photo))
    }

    /// A user id from the `X-User-ID` header, cleaned like the body's `user_id`; `nil` when nothing is left.
    public static func cleanUserID(header: String) throws(APIError) -> String? {
        try clean(header, field: "X-User-ID", maxLength: Limits.userIDLength)
    }

    /// Two decimals: 0.01° is 1.1 km of latitude, enough for the season and local time, not to find someone's house.
    /// Rounded here, so neither the model, the cache key nor the stored session ever sees the precise point.
    static func roundedToAboutOneKilometre(_ degrees: Double) -> Double {
        (degrees * 100).rounded() / 100
    }

    private static func validated(_ photo: PhotoMetadata) throws(APIError) -> PhotoMetadata {
        var clean = PhotoMetadata()
        if let takenAt = try Self.clean(photo.takenAt, field: "photo.taken_at", maxLength: Limits.textLength) {
            guard TimestampParser.date(from: takenAt) != nil else {
                throw .invalidField("photo.taken_at", "must be an ISO 8601 date-time such as 2026-11-21T17:42:00Z")
            }
            clean.takenAt = takenAt
        }
        if let location = photo.location {
            clean.location = try validated(location)
        }
        if let labels = photo.labels {
            guard labels.count <= Limits.labels else { throw .invalidField("photo.labels", "must have at most \(Limits.labels) labels") }
            var cleanLabels: [String] = []
            for (index, label) in labels.enumerated() {
                if let label = try Self.clean(label, field: "photo.labels[\(index)]", maxLength: Limits.labelLength) {
                    cleanLabels.append(label)
                }
            }
            clean.labels = cleanLabels
        }
        if let peopleCount = photo.peopleCount {
            guard Limits.peopleCount.contains(peopleCount) else {
                throw .invalidField(
                    "photo.people_count",
                    "must be an integer between \(Limits.peopleCount.lowerBound) and \(Limits.peopleCount.upperBound)"
                )
            }
            clean.peopleCount = peopleCount
        }
        clean.caption = try Self.clean(photo.caption, field: "photo.caption", maxLength: Limits.captionLength)
        clean.source = try Self.clean(photo.source, field: "photo.source", maxLength: Limits.sourceLength)
        return clean
    }

    private static func validated(_ location: PhotoMetadata.Location) throws(APIError) -> PhotoMetadata.Location {
        var clean = PhotoMetadata.Location()
        clean.name = try Self.clean(location.name, field: "photo.location.name", maxLength: Limits.textLength)
        clean.locality = try Self.clean(location.locality, field: "photo.location.locality", maxLength: Limits.textLength)
        clean.country = try Self.clean(location.country, field: "photo.location.country", maxLength: Limits.textLength)
        if let latitude = location.latitude {
            guard (-90.0...90.0).contains(latitude) else { throw .invalidField("photo.location.latitude", "must be between -90 and 90") }
            clean.latitude = Self.roundedToAboutOneKilometre(latitude)
        }
        if let longitude = location.longitude {
            guard (-180.0...180.0).contains(longitude) else { throw .invalidField("photo.location.longitude", "must be between -180 and 180") }
            clean.longitude = Self.roundedToAboutOneKilometre(longitude)
        }
        return clean
    }

    /// `text` with control characters turned into spaces (so nothing sent can break a log line or the template's
    /// layout) and runs of whitespace collapsed; `nil` when nothing is left.
    static func clean(_ text: String?, field: String, maxLength: Int) throws(APIError) -> String? {
        guard let text else { return nil }
        // Counted as sent, in Unicode scalars, as JSON Schema's maxLength (and so the OpenAPI contract) counts.
        guard text.unicodeScalars.count <= maxLength else { throw .invalidField(field, "must be at most \(maxLength) characters") }
        if isCleanASCII(text) { return text }
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        let collapsed = visible.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return collapsed.isEmpty ? nil : collapsed
    }

    /// Whether `text` is printable ASCII with one space between words and none at either end: what `clean` would
    /// return unchanged, found in one pass of its bytes. Most fields are, on every request.
    private static func isCleanASCII(_ text: String) -> Bool {
        var previous: UInt8 = 0x20
        for byte in text.utf8 {
            guard (0x20..<0x7F).contains(byte), byte != 0x20 || previous != 0x20 else { return false }
            previous = byte
        }
        return previous != 0x20
    }
}
