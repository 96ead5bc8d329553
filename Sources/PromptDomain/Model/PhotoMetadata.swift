/// What the app tells us about one photo: never the image, only its metadata.
///
/// Every field is optional (an empty `photo` is valid); ``PromptRequest/validated()`` bounds and cleans the values.
public struct PhotoMetadata: Codable, Sendable, Equatable, Hashable {
    /// When the photo was taken, as the ISO 8601 text the app sent.
    public var takenAt: String?
    public var location: Location?
    /// On-device labels such as "beach" or "dog".
    public var labels: [String]?
    /// How many people the device counted in the photo.
    public var peopleCount: Int?
    /// The user's own caption.
    public var caption: String?
    /// Where the photo came from, e.g. "camera" or "library".
    public var source: String?

    /// A place, as precise as the device could name it.
    public struct Location: Codable, Sendable, Equatable, Hashable {
        /// The place's name, e.g. "Praia da Rocha".
        public var name: String?
        /// The town or city.
        public var locality: String?
        public var country: String?
        /// Degrees north, -90...90.
        public var latitude: Double?
        /// Degrees east, -180...180.
        public var longitude: Double?

        public init(name: String? = nil, locality: String? = nil, country: String? = nil, latitude: Double? = nil, longitude: Double? = nil) {
            self.name = name
            self.locality = locality
            self.country = country
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// The photo's own words as sent (its details and caption): what a card may name as the photo's.
    package var ownTexts: [String] {
        details + [caption].compactMap(\.self)
    }

    /// Its place's name, locality and country, then its labels: what a card naming the photo names (``PhotoMentions``).
    package var details: [String] {
        [location?.name, location?.locality, location?.country].compactMap(\.self) + (labels ?? [])
    }

    public init(
        takenAt: String? = nil,
        location: Location? = nil,
        labels: [String]? = nil,
        peopleCount: Int? = nil,
        caption: String? = nil,
        source: String? = nil
    ) {
        self.takenAt = takenAt
        self.location = location
        self.labels = labels
        self.peopleCount = peopleCount
        self.caption = caption
        self.source = source
    }

    /// Decodes every field, reporting a fractional `people_count` at its own path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        takenAt = try container.decodeIfPresent(String.self, forKey: .takenAt)
        location = try container.decodeIfPresent(Location.self, forKey: .location)
        labels = try container.decodeIfPresent([String].self, forKey: .labels)
        // Foundation reports 2.5-for-an-Int with an empty coding path; check it here so the error names the field.
        // The error is built only when thrown: its coding path costs allocations that every valid request would pay.
        func notAnInteger() -> DecodingError {
            .typeMismatch(Int.self, .init(codingPath: container.codingPath + [CodingKeys.peopleCount], debugDescription: "not a whole number"))
        }
        do {
            if let count = try container.decodeIfPresent(Double.self, forKey: .peopleCount) {
                guard let whole = Int(exactly: count) else { throw notAnInteger() }
                peopleCount = whole
            }
        } catch DecodingError.typeMismatch {
            throw notAnInteger()
        }
        caption = try container.decodeIfPresent(String.self, forKey: .caption)
        source = try container.decodeIfPresent(String.self, forKey: .source)
    }
}
