/// The product spec's fixed numbers that every layer shares (the entry screen's spec: three prompts a round).
///
/// The word range lives with the word rule (``WordRule``), per language; the refresh limit and the model's time
/// are configuration, with the spec's numbers as their defaults.
public enum ProductSpec {
    /// How many prompts an answer carries.
    public static let promptsPerAnswer = 3
}
