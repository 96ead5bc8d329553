import Foundation

extension PromptRequest {
    /// The locale used when the client sends none.
    public static let defaultLocale = "en-US"

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
    ///
    /// - Throws: ``APIError`` (400 `invalid_request`) naming the first field that is out of bounds.
    public func validated() throws(APIError) -> ValidatedPromptRequest {
        let userID = try Self.clean(userID, field: "user_id", maxLength: Limits.userIDLength)
        // Absent or empty means the default; anything else must be a well-formed BCP 47 tag, and is kept in its
        // canonical form ("en_US" and "EN-us" are "en-US"), so the cache, the session and the template see one spelling.
        var tag = Self.defaultLocale
        if let locale, !locale.isEmpty {
            guard let parsed = LanguageTag(locale) else {
                throw .invalidField("locale", "must be a BCP 47 language tag of at most \(Limits.localeLength) characters, such as en-US or zh-Hant-TW")
            }
            tag = parsed.description
        }
        return ValidatedPromptRequest(userID: userID, locale: tag, photo: try Self.validated(photo))
    }

    /// A user id from the `X-User-ID` header, cleaned like the body's `user_id`; `nil` when nothing is left.
    public static func cleanUserID(header: String) throws(APIError) -> String? {
        try clean(header, field: "X-User-ID", maxLength: Limits.userIDLength)
    }

    /// Two decimals: 0.01° is 1.1 km of latitude (less of longitude away from the equator). Enough for the season
    /// and the local time; not enough to find someone's house. Rounded here, so neither the model, the cache key
    /// nor the stored session ever sees the precise point.
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

    /// `text` with control characters turned into spaces and runs of whitespace collapsed; `nil` when nothing is left.
    ///
    /// Control characters are removed so nothing the client sends can break a log line or the template's layout.
    static func clean(_ text: String?, field: String, maxLength: Int) throws(APIError) -> String? {
        guard let text else { return nil }
        // Counted as sent, in Unicode scalars, as JSON Schema's maxLength (and so the OpenAPI contract) counts.
        guard text.unicodeScalars.count <= maxLength else { throw .invalidField(field, "must be at most \(maxLength) characters") }
        if isAlreadyClean(text) { return text }
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        let collapsed = visible.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return collapsed.isEmpty ? nil : collapsed
    }

    /// Whether `text` is printable ASCII words with single spaces between them, as most labels and names are: then
    /// cleaning it changes nothing, and the Unicode look-ups of the general case are skipped.
    private static func isAlreadyClean(_ text: String) -> Bool {
        var previous: UInt8 = 0x20
        for byte in text.utf8 {
            guard byte > 0x20 && byte < 0x7F || byte == 0x20 && previous != 0x20 else { return false }
            previous = byte
        }
        return previous != 0x20
    }
}

/// Parses the timestamps the app sends: RFC 3339 date-times (ISO 8601 with a zone), as `openapi.yaml`'s
/// `format: date-time` defines them.
///
/// Hand-written rather than Foundation's ISO 8601 style, which refuses some valid RFC 3339 values (one-digit
/// fractions, offsets past ±14:00, years before 1600) that a client generated from the contract may send.
enum TimestampParser {
    /// The date `text` names, or `nil` when it is not an RFC 3339 date-time.
    static func date(from text: String) -> Date? {
        components(of: text).flatMap(date(from:))
    }

    /// The instant `parts` name.
    static func date(from parts: Parts) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let local = DateComponents(
            calendar: calendar,
            year: parts.year,
            month: parts.month,
            day: parts.day,
            hour: parts.hour,
            minute: parts.minute,
            // A leap second (":60") is read as the last second of its minute.
            second: min(parts.second, 59)
        )
        guard let date = calendar.date(from: local) else { return nil }
        return date.addingTimeInterval(parts.fraction - Double(parts.offsetSeconds ?? 0))
    }

    struct Parts {
        var year, month, day, hour, minute, second: Int
        var fraction: Double
        /// The stated offset from UTC; `nil` for `Z`, which says "UTC" but not where the user was.
        var offsetSeconds: Int?
    }

    /// The fields of `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, each within its range; `t` and `z` may be lower case.
    ///
    /// Scanned byte by byte: it runs several times per request, and a Swift `Regex` here cost more than the rest of a
    /// cache hit.
    static func components(of text: String) -> Parts? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is expected: Character...) -> Bool {
            index < bytes.count && expected.contains { $0.asciiValue == bytes[index] }
        }
        guard bytes.count >= 20, let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"),
            let day = number(8, 2), byte(10, is: "T", "t"), let hour = number(11, 2), byte(13, is: ":"), let minute = number(14, 2),
            byte(16, is: ":"), let second = number(17, 2)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if byte(index, is: ".") {
            var scale = 0.1
            index += 1
            let digitsStart = index
            while index < bytes.count, let digit = number(index, 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > digitsStart else { return nil }
        }
        let offset: Int?
        if byte(index, is: "Z", "z"), index + 1 == bytes.count {
            offset = nil
        } else if byte(index, is: "+", "-"), index + 6 == bytes.count, let hours = number(index + 1, 2), byte(index + 3, is: ":"),
            let minutes = number(index + 4, 2), (0...23).contains(hours), (0...59).contains(minutes)
        {
            offset = (hours * 3600 + minutes * 60) * (byte(index, is: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return Parts(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction, offsetSeconds: offset)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
