/// What the service holds about one user of one client: for "Export Data".
public struct UserExport: Sendable {
    /// Their sessions, oldest first, with every round shown.
    public var sessions: [SessionSnapshot]
    /// Their feedback, oldest first.
    public var feedback: [Feedback]
    /// The prompts they were shown inside the history window, newest first: hashes and signatures, no text.
    public var history: SeenHistory

    package init(sessions: [SessionSnapshot], feedback: [Feedback], history: SeenHistory = []) {
        self.sessions = sessions
        self.feedback = feedback
        self.history = history
    }
}
