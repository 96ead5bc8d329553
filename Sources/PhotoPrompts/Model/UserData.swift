import Foundation

/// What the service holds about one user of one client: for "Export Data".
public struct UserExport: Sendable {
    /// Their sessions, oldest first, with every round shown.
    public var sessions: [SessionSnapshot]
    /// Their feedback, oldest first.
    public var feedback: [ExportedFeedback]
}

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
}

/// What "Delete Account" removed.
public struct DeletedUserData: Sendable, Equatable {
    /// Sessions, with their rounds and prompts.
    public var sessions: Int
    /// Feedback rows.
    public var feedback: Int
    /// Answers kept for idempotent retries.
    public var idempotencyRecords: Int
}
