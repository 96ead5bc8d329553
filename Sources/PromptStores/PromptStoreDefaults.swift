import Foundation

/// Settings both stores share.
public enum PromptStoreDefaults {
    /// How long an uncompleted claim (refresh reservation or turn, idempotency key) holds. The service's claims last
    /// `LLM_TIMEOUT` + ``claimMargin``; this default is for stores opened without a configuration (tests, `generate`).
    public static let claimLease: TimeInterval = 15 + claimMargin
    /// Added to `LLM_TIMEOUT`: every request is answered by `LLM_TIMEOUT` + 1 s, so an older claim's process died.
    public static let claimMargin: TimeInterval = 2
}
