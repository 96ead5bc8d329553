import PromptDomain
import PromptStores

extension SessionService {
    /// Records that the user selected or dismissed a prompt the session showed.
    /// - Throws: ``SessionError/notFound`` or ``SessionError/promptNotFound``.
    public func record(sessionID: String, promptID: String, action: FeedbackAction, caller: Caller) async throws -> RecordedFeedback {
        let feedback = Feedback(sessionID: sessionID, promptID: promptID, action: action, at: generator.clock.now, caller: caller)
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
        guard let session = try await store.session(id: id, now: generator.clock.now), session.isVisible(to: caller) else {
            throw SessionError.notFound
        }
        return session
    }
}
