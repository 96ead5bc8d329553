/// What the user did with a prompt card.
public enum FeedbackAction: String, Codable, Sendable, CaseIterable {
    /// The user tapped the prompt and started writing from it.
    case selected
    case dismissed
}
