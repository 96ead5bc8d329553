import Foundation

/// Feedback about to be recorded.
public struct NewFeedback: Sendable {
    /// The session that showed the prompt.
    public var sessionID: String
    /// The prompt's id, as shown.
    public var promptID: String
    /// What the user did.
    public var action: FeedbackAction
    /// When it was received.
    public var at: Date
    /// Who sent it: only the session's owner may.
    public var caller: Caller

    /// Creates feedback to record.
    public init(sessionID: String, promptID: String, action: FeedbackAction, at: Date, caller: Caller) {
        self.sessionID = sessionID
        self.promptID = promptID
        self.action = action
        self.at = at
        self.caller = caller
    }
}
