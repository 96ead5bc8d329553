/// Which provider and model answered.
public struct BackendIdentity: Sendable, Equatable, Codable {
    /// The provider, e.g. "openai" or "stub".
    public var provider: String
    /// The model name, e.g. "gpt-4o-mini".
    public var model: String

    public init(provider: String, model: String) {
        self.provider = provider
        self.model = model
    }
}
