import Foundation

/// One feedback row, as exported.
public struct ExportedFeedback: Sendable {
    /// The session that showed the prompt.
    public var sessionID: String
    /// The prompt.
    public var promptID: String
    /// What the user did.
    public var action: FeedbackAction
    /// When.
    public var recordedAt: Date

    /// Creates a value with every field.
    package init(sessionID: String, promptID: String, action: FeedbackAction, recordedAt: Date) {
        self.sessionID = sessionID
        self.promptID = promptID
        self.action = action
        self.recordedAt = recordedAt
    }
}
