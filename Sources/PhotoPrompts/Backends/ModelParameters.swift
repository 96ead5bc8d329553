/// Provider-neutral sampling parameters, set in a template's `settings.json`. Part of every cache key.
public struct ModelParameters: Codable, Sendable, Equatable, Hashable {
    /// Sampling temperature; `nil` leaves the provider's default.
    public var temperature: Double?
    /// The longest reply, in tokens.
    public var maxTokens: Int

    /// Creates parameters.
    public init(temperature: Double? = 0.8, maxTokens: Int = 400) {
        self.temperature = temperature
        self.maxTokens = maxTokens
    }

    enum CodingKeys: String, CodingKey {
        case temperature
        case maxTokens = "max_tokens"
    }
}
