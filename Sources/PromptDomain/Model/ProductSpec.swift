/// The product spec's fixed numbers that every layer shares (the entry screen's: three prompts a round). The word
/// range lives with ``WordRule``, per language; the refresh limit and the model's time are configuration.
public enum ProductSpec {
    /// How many prompts an answer carries.
    public static let promptsPerAnswer = 3
}
