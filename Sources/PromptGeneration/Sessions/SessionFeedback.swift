import Foundation
import PromptDomain
import PromptStores
import PromptTemplates

/// A session after it was shown: read back by the app, and what the user did with a prompt (picked or dismissed).
public struct SessionFeedback: Sendable {
    package let store: any SessionStore
    package let templates: TemplateLibrary
    package let stats: StatsRecorder
    package let clock: any WallClock

    public init(store: any SessionStore, templates: TemplateLibrary, stats: StatsRecorder, clock: any WallClock) {
        self.store = store
        self.templates = templates
        self.stats = stats
        self.clock = clock
    }

    /// Records that the user selected or dismissed a prompt the session showed.
    ///
    /// - Throws: ``SessionError/notFound`` or ``SessionError/promptNotFound``.
    public func record(sessionID: String, promptID: String, action: FeedbackAction, caller: Caller) async throws -> RecordedFeedback {
        let feedback = Feedback(sessionID: sessionID, promptID: promptID, action: action, at: clock.now, caller: caller)
        switch try await store.recordFeedback(feedback) {
        case .sessionNotFound:
            throw SessionError.notFound
        case .promptNotFound:
            throw SessionError.promptNotFound
        case .recorded(let recorded):
            stats.recordFeedback(recorded, language: templates.live.copy.copy(for: recorded.locale).locale.description)
            return recorded
        }
    }

    /// - Throws: ``SessionError/notFound`` when it is unknown or expired.
    public func session(id: String, caller: Caller) async throws -> SessionSnapshot {
        guard let session = try await store.session(id: id, now: clock.now), session.isVisible(to: caller) else {
            throw SessionError.notFound
        }
        return session
    }
}
