import Foundation

/// Prompts to store in the cache under a key until a date.
public struct CacheEntry: Sendable {
    /// The cache key (a hex SHA-256).
    public var key: String
    /// Every valid prompt of the answer, shown or not.
    public var prompts: [ValidPrompt]
    /// When the entry stops being served.
    public var expiresAt: Date

    public init(key: String, prompts: [ValidPrompt], expiresAt: Date) {
        self.key = key
        self.prompts = prompts
        self.expiresAt = expiresAt
    }
}
