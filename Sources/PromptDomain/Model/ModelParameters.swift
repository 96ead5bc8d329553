/// Provider-neutral sampling parameters, set in a template's `settings.json`. Part of every cache key.
public struct ModelParameters: Codable, Sendable, Equatable, Hashable {
    /// Sampling temperature; `nil` leaves the provider's default.
    public var temperature: Double?
    /// The longest reply, in tokens; `nil` sizes it from what is asked (``OutputConstraint/maxTokens``).
    public var maxTokens: Int?
    /// llama.cpp's DRY sampler (`dry_multiplier`), which keeps a small model from repeating itself inside a reply;
    /// sent with the grammar, to llama.cpp's server only. `nil` sends none.
    public var dryMultiplier: Double?
    /// The sampler's seed, for replies that repeat (a quality check in CI); `nil` sends none. OpenAI-compatible
    /// servers and Ollama take it; Anthropic has none.
    public var seed: Int?

    public init(temperature: Double? = 0.8, maxTokens: Int? = nil, dryMultiplier: Double? = nil, seed: Int? = nil) {
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.dryMultiplier = dryMultiplier
        self.seed = seed
    }

    /// The token limit sent with a request held to `constraint`: the template's, else sized from the constraint,
    /// else 400. The one rule the backends, the admin preview and `photo-prompts render` all show.
    public func tokenLimit(for constraint: OutputConstraint?) -> Int {
        maxTokens ?? constraint?.maxTokens ?? 400
    }
}
