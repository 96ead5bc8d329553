import Foundation

/// Feedback as stored.
public struct RecordedFeedback: Sendable {
    public var promptID: String
    public var action: FeedbackAction
    /// When it was first recorded; a repeat returns the original time.
    public var recordedAt: Date
    /// `false` when this exact feedback had been recorded before: repeats change nothing.
    public var isNew: Bool
    /// The first `selected` of its session, which turns the session into one "where a prompt was picked".
    public var isFirstSelection: Bool
    /// The template, variant and version that showed the prompt.
    public var template: TemplateIdentity
    /// The session's language, so feedback counts per language in the stats.
    public var locale: LanguageTag
}

extension RecordedFeedback {
    /// `feedback` as just recorded; it is the session's first selection when none came before it.
    package static func new(_ feedback: Feedback, hadSelection: Bool, template: TemplateIdentity, locale: LanguageTag) -> RecordedFeedback {
        RecordedFeedback(
            promptID: feedback.promptID,
            action: feedback.action,
            recordedAt: feedback.at,
            isNew: true,
            isFirstSelection: feedback.action == .selected && !hadSelection,
            template: template,
            locale: locale
        )
    }

    /// `feedback` sent again: the first record, at the time it was made.
    package static func repeated(_ feedback: Feedback, recordedAt: Date, template: TemplateIdentity, locale: LanguageTag) -> RecordedFeedback {
        RecordedFeedback(
            promptID: feedback.promptID,
            action: feedback.action,
            recordedAt: recordedAt,
            isNew: false,
            isFirstSelection: false,
            template: template,
            locale: locale
        )
    }
}
