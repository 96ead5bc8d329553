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
        public var fallbackReason: FallbackReason?
        /// Whether it counted against the refresh limit.
        public var counted: Bool
        public var prompts: [Prompt]
        /// When it was shown, ISO 8601.
        public var createdAt: String

        enum CodingKeys: String, CodingKey {
            case round, source, counted, prompts
            case fallbackReason = "fallback_reason"
            case createdAt = "created_at"
        }

        /// Writes `fallback_reason` as `null` rather than omitting it, like every other answer.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(round, forKey: .round)
            try container.encode(source, forKey: .source)
            try container.encode(fallbackReason, forKey: .fallbackReason)
            try container.encode(counted, forKey: .counted)
            try container.encode(prompts, forKey: .prompts)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }

    public var sessionID: String
    /// The app's user id, or `null`.
    public var userID: String?
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

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id"
        case userID = "user_id"
        case locale, photo, rounds, template
        case refreshesUsed = "refreshes_used"
        case refreshesRemaining = "refreshes_remaining"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }

    /// Writes `user_id` as `null` rather than omitting it: the app reads a fixed shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sessionID, forKey: .sessionID)
        try container.encode(userID, forKey: .userID)
        try container.encode(locale, forKey: .locale)
        try container.encode(photo, forKey: .photo)
        try container.encode(rounds, forKey: .rounds)
        try container.encode(refreshesUsed, forKey: .refreshesUsed)
        try container.encode(refreshesRemaining, forKey: .refreshesRemaining)
        try container.encode(template, forKey: .template)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(expiresAt, forKey: .expiresAt)
    }
}
