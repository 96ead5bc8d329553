import PromptDomain

/// Sees a model's text while the model still writes it. The generator sets one (``ReplyObservation/current``) for a
/// request whose client streams; backends that can stream ask their provider to and hand it each piece. Without one,
/// backends ask for the whole reply.
public protocol ReplyObserver: Sendable {
    /// A new call to `backend` begins (the first, a failover, or a re-ask): text from here on is a new reply, by it.
    func callStarted(by backend: BackendIdentity)
    /// More of the current reply's text, in order.
    func received(_ text: String)
}

/// The observer of the calls a task makes: a task-local, so the chain, its failovers and re-asks reach it without
/// every backend call carrying a parameter that only streamed requests use.
public enum ReplyObservation {
    @TaskLocal public static var current: (any ReplyObserver)?
}
