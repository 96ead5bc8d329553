import Foundation

/// A session about to be created.
public struct NewSession: Sendable {
    /// The opaque id.
    public var id: String
    /// The client key's name that creates it.
    public var owner: String
    /// The app's user id, if it sent one.
    public var userID: String?
    /// The locale prompts are written for, parsed once when the request was validated.
    public var locale: LanguageTag
    /// The photo's metadata.
    public var photo: PhotoMetadata
    /// The template in use when the session started.
    public var template: TemplateIdentity
    /// When the session started.
    public var createdAt: Date
    /// When it stops answering.
    public var expiresAt: Date
    /// Round 0.
    public var firstRound: SessionRound
    /// Until when the user's history keeps the first round's prompts; nil keeps none (no user id, or
    /// `PROMPT_HISTORY_DAYS=0`).
    public var historyUntil: Date?

    /// Creates a session to store.
    public init(
        id: String,
        owner: String,
        userID: String?,
        locale: LanguageTag,
        photo: PhotoMetadata,
        template: TemplateIdentity,
        createdAt: Date,
        expiresAt: Date,
        firstRound: SessionRound,
        historyUntil: Date? = nil
    ) {
        self.id = id
        self.owner = owner
        self.userID = userID
        self.locale = locale
        self.photo = photo
        self.template = template
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.firstRound = firstRound
        self.historyUntil = historyUntil
    }
}
