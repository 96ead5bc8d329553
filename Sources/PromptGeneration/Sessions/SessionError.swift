import PromptTemplates

/// Why a session request was refused.
public enum SessionError: Error, Equatable {
    /// No such session, or it expired.
    case notFound
    /// The session's refreshes are all delivered.
    case refreshLimitReached(refreshesUsed: Int, copy: ProductCopy)
    /// Refreshes still running hold the session's last slots; `refreshesUsed` are delivered. Retry after
    /// `retryAfterSeconds`: by then the running one has counted, or given its slot back.
    case refreshPending(refreshesUsed: Int, retryAfterSeconds: Int)
    /// The session never showed the prompt named.
    case promptNotFound
    /// Another refresh of the session still held its turn at this request's deadline.
    case refreshInProgress
}
