import Foundation
import PromptDomain

/// Everything a template can refer to, turned into the dictionaries Mustache renders.
///
/// Keys (documented for operators in `prompts/README.md`):
/// `photo.taken_at`, `photo.location.{name,locality,country,latitude,longitude}`, `photo.place` (the location's
/// names joined), `photo.labels` (a list), `photo.people_count`, `photo.caption`, `photo.source`, `locale`, `language`
/// (the locale's language in English, "Japanese"), `min_words` and `max_words` (added by ``PromptTemplate``),
/// `candidate_count`, `round`, `is_refresh`, `avoid` (prompts already shown, as a list) and `has_avoid`; derived from
/// `taken_at` and the location (``PhotoMoment``): `time_of_day`, `season`, `weekday`, `is_recent`, `years_ago`,
/// `years_ago_text`. `location` and `place` are also available without the `photo.` prefix.
public struct TemplateContext: Sendable {
    public var photo: PhotoMetadata
    /// The language prompts are written in.
    public var locale: LanguageTag
    public var candidateCount: Int
    /// 0 for the first prompts, n for the n-th refresh.
    public var round: Int
    /// Prompts already shown in this session, which the model should not repeat.
    public var avoid: [String]
    /// When the request is made, for `is_recent` and `years_ago`.
    public var now: Date

    public init(photo: PhotoMetadata, locale: LanguageTag, candidateCount: Int, round: Int = 0, avoid: [String] = [], now: Date = Date()) {
        self.photo = photo
        self.locale = locale
        self.candidateCount = candidateCount
        self.round = round
        self.avoid = avoid
        self.now = now
    }

    /// When and where the photo was taken, as templates see it; `nil` without a readable `taken_at`.
    public var moment: PhotoMoment? {
        PhotoMoment(takenAt: photo.takenAt, latitude: photo.location?.latitude, longitude: photo.location?.longitude, now: now)
    }

    /// The nested dictionaries handed to Mustache. Missing fields are absent, so `{{#photo.caption}}` sections work.
    package var mustacheValues: [String: Any] {
        let photo = delimitedPhoto
        var photoValues: [String: Any] = [:]
        photoValues["taken_at"] = photo.takenAt
        photoValues["people_count"] = photo.peopleCount
        photoValues["caption"] = photo.caption
        photoValues["source"] = photo.source
        if let labels = photo.labels, !labels.isEmpty {
            photoValues["labels"] = labels
            photoValues["labels_text"] = labels.joined(separator: ", ")
        }
        if let location = photo.location {
            var locationValues: [String: Any] = [:]
            locationValues["name"] = location.name
            locationValues["locality"] = location.locality
            locationValues["country"] = location.country
            locationValues["latitude"] = location.latitude
            locationValues["longitude"] = location.longitude
            photoValues["location"] = locationValues
            let names = [location.name, location.locality, location.country].compactMap { $0 }.filter { !$0.isEmpty }
            if !names.isEmpty { photoValues["place"] = names.joined(separator: ", ") }
        }
        var values: [String: Any] = [
            "photo": photoValues,
            "locale": locale.description,
            "language": LanguageNames.englishName(of: locale),
            "candidate_count": candidateCount,
            "round": round,
        ]
        values["location"] = photoValues["location"]
        values["place"] = photoValues["place"]
        if let moment { values.merge(moment.mustacheValues) { current, _ in current } }
        if round > 0 { values["is_refresh"] = true }
        if !avoid.isEmpty {
            values["avoid"] = avoid
            values["has_avoid"] = true
        }
        return values
    }

    /// Angle brackets replaced, so no caption or label can close the `<photo>` block and pose as instructions.
    private var delimitedPhoto: PhotoMetadata {
        func safe(_ text: String?) -> String? {
            // Most text has neither bracket: a byte scan spares two Foundation searches per field.
            guard let text, text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return text }
            return text.replacingOccurrences(of: "<", with: "‹").replacingOccurrences(of: ">", with: "›")
        }
        var photo = self.photo
        photo.takenAt = safe(photo.takenAt)
        photo.caption = safe(photo.caption)
        photo.source = safe(photo.source)
        photo.labels = photo.labels?.map { safe($0) ?? $0 }
        if var location = photo.location {
            location.name = safe(location.name)
            location.locality = safe(location.locality)
            location.country = safe(location.country)
            photo.location = location
        }
        return photo
    }
}
