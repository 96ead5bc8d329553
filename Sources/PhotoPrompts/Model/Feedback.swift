import Foundation

/// What the user did with a prompt card.
public enum FeedbackAction: String, Codable, Sendable, CaseIterable {
    /// The user tapped the prompt and started writing from it.
    case selected
    /// The user dismissed it.
    case dismissed
}

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

/// Feedback as stored.
public struct RecordedFeedback: Sendable {
    /// The prompt's id.
    public var promptID: String
    /// What the user did.
    public var action: FeedbackAction
    /// When it was first recorded; a repeat returns the original time.
    public var recordedAt: Date
    /// `false` when this exact feedback had been recorded before: repeats change nothing.
    public var isNew: Bool
    /// The first `selected` of its session, which turns the session into one "where a prompt was picked".
    public var isFirstSelection: Bool
    /// The template, variant and version that showed the prompt.
    public var template: TemplateIdentity
}

/// The store's answer to feedback.
public enum FeedbackOutcome: Sendable {
    /// Recorded now or before.
    case recorded(RecordedFeedback)
    /// No such session, or it expired.
    case sessionNotFound
    /// The session never showed this prompt.
    case promptNotFound
}

extension RecordedFeedback {
    /// `feedback` as just recorded; it is the session's first selection when none came before it.
    static func new(_ feedback: NewFeedback, hadSelection: Bool, template: TemplateIdentity) -> RecordedFeedback {
        RecordedFeedback(
            promptID: feedback.promptID,
            action: feedback.action,
            recordedAt: feedback.at,
            isNew: true,
            isFirstSelection: feedback.action == .selected && !hadSelection,
            template: template
        )
    }

    /// `feedback` sent again: the first record, at the time it was made.
    static func repeated(_ feedback: NewFeedback, recordedAt: Date, template: TemplateIdentity) -> RecordedFeedback {
        RecordedFeedback(
            promptID: feedback.promptID,
            action: feedback.action,
            recordedAt: recordedAt,
            isNew: false,
            isFirstSelection: false,
            template: template
        )
    }
}
