import Foundation

/// Settings both stores share.
public enum PromptStoreDefaults {
    /// How long a claim made for one request holds without being completed: a refresh reservation, a refresh
    /// turn, an idempotency key being answered. The service's claims last `LLM_TIMEOUT` plus ``claimMargin``;
    /// this default is for stores opened without a configuration (tests, `generate`).
    public static let claimLease: TimeInterval = 15 + claimMargin
    /// What a claim's lease adds to the request's deadline: every request is answered by `LLM_TIMEOUT` + 1 s, so
    /// a claim older than that belongs to a process that died, and the next request takes it over.
    public static let claimMargin: TimeInterval = 2
}
