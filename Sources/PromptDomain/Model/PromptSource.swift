/// Where a prompt, or a whole answer, came from.
public enum PromptSource: String, Codable, Sendable {
    /// The backend answered during this request.
    case model
    /// Served from the cache; no backend call was made.
    case cache
    /// The product's fallback copy, used when the model could not supply enough good prompts.
    case fallback
}
