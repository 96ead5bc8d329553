/// The store's answer to feedback.
public enum FeedbackOutcome: Sendable {
    /// Recorded now or before.
    case recorded(RecordedFeedback)
    /// No such session, or it expired.
    case sessionNotFound
    /// The session never showed this prompt.
    case promptNotFound
}
