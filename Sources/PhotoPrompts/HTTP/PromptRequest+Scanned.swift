import NIOCore

extension PromptRequest {
    /// The request in `body`: read by ``scanned(from:)`` when it can, else by `JSONDecoder`, whose 400 names the
    /// field at fault.
    ///
    /// - Throws: ``APIError`` 400 `invalid_request`, as `JSONRequestDecoder.decode(_:from:)` does.
    static func decoded(from body: ByteBuffer) throws -> PromptRequest {
        try scanned(from: body) ?? JSONRequestDecoder.decode(PromptRequest.self, from: body)
    }

    /// The request in `body` when it is plain JSON of the expected types, read without `JSONDecoder`; otherwise
    /// `nil`, and the caller decodes with `JSONDecoder`, whose errors name the field at fault.
    ///
    /// Decoding the body with `JSONDecoder` was the largest single step of a cache hit's own work. What this
    /// accepts, it reads exactly as the `Decodable` conformances do (`ScannedRequestTests` holds it to that): null
    /// is an absent value, unknown fields are ignored, and `people_count` is a whole number.
    static func scanned(from body: ByteBuffer) -> PromptRequest? {
        body.withUnsafeReadableBytes { bytes in
            guard case .object(let fields)? = ScannedJSON.parse(bytes) else { return nil }
            return try? PromptRequest(scanned: fields)
        }
    }

    private init(scanned fields: [String: ScannedJSON]) throws(NotScannable) {
        guard case .object(let photo)? = fields["photo"] else { throw NotScannable() }
        self.init(
            userID: try Self.string(fields["user_id"]),
            locale: try Self.string(fields["locale"]),
            photo: try Self.photo(photo)
        )
    }

    private static func photo(_ fields: [String: ScannedJSON]) throws(NotScannable) -> PhotoMetadata {
        var location: PhotoMetadata.Location?
        switch fields["location"] {
        case nil, .null?: location = nil
        case .object(let place)?:
            location = PhotoMetadata.Location(
                name: try string(place["name"]),
                locality: try string(place["locality"]),
                country: try string(place["country"]),
                latitude: try number(place["latitude"]),
                longitude: try number(place["longitude"])
            )
        default: throw NotScannable()
        }
        var labels: [String]?
        switch fields["labels"] {
        case nil, .null?: labels = nil
        case .array(let elements)?:
            labels = try elements.map { element throws(NotScannable) in
                guard case .string(let label) = element else { throw NotScannable() }
                return label
            }
        default: throw NotScannable()
        }
        var peopleCount: Int?
        if let count = try number(fields["people_count"]) {
            guard let whole = Int(exactly: count) else { throw NotScannable() }
            peopleCount = whole
        }
        return PhotoMetadata(
            takenAt: try string(fields["taken_at"]),
            location: location,
            labels: labels,
            peopleCount: peopleCount,
            caption: try string(fields["caption"]),
            source: try string(fields["source"])
        )
    }

    private static func string(_ value: ScannedJSON?) throws(NotScannable) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw NotScannable()
        }
    }

    private static func number(_ value: ScannedJSON?) throws(NotScannable) -> Double? {
        switch value {
        case nil, .null?: return nil
        case .number(let number)?: return number
        default: throw NotScannable()
        }
    }

    /// Something `JSONDecoder` must judge: it names the field at fault.
    private struct NotScannable: Error {}
}
