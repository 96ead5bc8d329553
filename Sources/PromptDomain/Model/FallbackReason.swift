/// Why an answer fell back, in words the app can map to its copy.
public enum FallbackReason: String, Codable, Sendable {
    /// The backend did not answer within `LLM_TIMEOUT`.
    case timeout
    /// The backend failed: refused the connection, answered an HTTP error, or sent an unreadable body.
    case backendError = "backend_error"
    /// The backend answered, but none of its candidates passed validation.
    case invalidOutput = "invalid_output"
    /// Good prompts were there, but this user had met every one: the output was fine, so the model is not blamed.
    case allSeen = "all_seen"
    /// Every backend's circuit breaker is open, or each asked us to wait: no call was made.
    case unavailable
    /// No backend writes the user's language (`LLM_LANGUAGES`): no call was made.
    case unsupportedLanguage = "unsupported_language"
}
