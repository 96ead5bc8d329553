import Foundation
import Hummingbird
import PromptDomain

/// The answer to `GET /v1/sessions/{id}`: the photo, every round shown, and the counts.
public struct SessionResponse: ResponseEncodable, Decodable, Sendable {
    public struct Round: Codable, Sendable {
        /// 0 for the first answer, then one per refresh attempt.
        public var round: Int
        /// `model`, `cache` or `fallback`.
        public var source: PromptSource
        /// Why it fell back, or `null`.
        @ExplicitNull public var fallbackReason: FallbackReason?
        /// Whether it counted against the refresh limit.
        public var counted: Bool
        public var prompts: [Prompt]
        /// When it was shown, ISO 8601.
        public var createdAt: String
    }

    public var sessionID: String
    /// The app's user id, or `null`.
    @ExplicitNull public var userID: String?
    public var locale: String
    /// The photo's metadata as stored (cleaned).
    public var photo: PhotoMetadata
    /// Every round shown, oldest first.
    public var rounds: [Round]
    public var refreshesUsed: Int
    public var refreshesRemaining: Int
    /// The template the session started with.
    public var template: TemplateIdentity
    /// When the session started, ISO 8601.
    public var createdAt: String
    /// When it stops answering, ISO 8601.
    public var expiresAt: String

    public init(_ session: SessionSnapshot, refreshLimit: Int) {
        let format = Date.ISO8601FormatStyle()
        sessionID = session.id
        userID = session.userID
        locale = session.locale.description
        photo = session.photo
        rounds = session.rounds.map { round in
            Round(
                round: round.round,
                source: round.source,
                fallbackReason: round.fallbackReason,
                counted: round.counted,
                prompts: round.prompts,
                createdAt: round.createdAt.formatted(format)
            )
        }
        refreshesUsed = session.refreshesUsed
        refreshesRemaining = max(0, refreshLimit - session.refreshesUsed)
        template = session.template
        createdAt = session.createdAt.formatted(format)
        expiresAt = session.expiresAt.formatted(format)
    }
}
