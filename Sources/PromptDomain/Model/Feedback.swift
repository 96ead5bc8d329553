import Foundation

/// One user's feedback on a prompt a session showed: as it arrives to be recorded, and as the user's data export
/// lists it.
public struct Feedback: Sendable {
    /// The session that showed the prompt.
    public var sessionID: String
    /// The prompt's id, as shown.
    public var promptID: String
    public var action: FeedbackAction
    public var at: Date
    /// Who sent it: only the session's owner may.
    public var caller: Caller

    public init(sessionID: String, promptID: String, action: FeedbackAction, at: Date, caller: Caller) {
        self.sessionID = sessionID
        self.promptID = promptID
        self.action = action
        self.at = at
        self.caller = caller
    }
}
