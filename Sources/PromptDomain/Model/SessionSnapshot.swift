import Foundation

/// A session: its photo, its counts, and every round it has shown. A new one, as created, has round 0 only.
public struct SessionSnapshot: Sendable, Equatable {
    public var id: String
    /// The client key's name that created it.
    public var owner: String
    /// The app's user id, if it sent one.
    public var userID: String?
    /// The locale prompts are written for, parsed once when the request was validated.
    public var locale: LanguageTag
    public var photo: PhotoMetadata
    /// The template in use when the session started.
    public var template: TemplateIdentity
    /// Refreshes that counted against the limit.
    public var refreshesUsed: Int
    public var createdAt: Date
    /// When it stops answering.
    public var expiresAt: Date
    /// Valid prompts written but not yet shown, to serve the next refresh.
    public var surplus: [ValidPrompt]
    /// Every round shown, oldest first.
    public var rounds: [SessionRound]

    public func isVisible(to caller: Caller) -> Bool {
        caller.owns(client: owner, userID: userID)
    }

    package init(
        id: String,
        owner: String,
        userID: String? = nil,
        locale: LanguageTag,
        photo: PhotoMetadata,
        template: TemplateIdentity,
        refreshesUsed: Int,
        createdAt: Date,
        expiresAt: Date,
        surplus: [ValidPrompt],
        rounds: [SessionRound]
    ) {
        self.id = id
        self.owner = owner
        self.userID = userID
        self.locale = locale
        self.photo = photo
        self.template = template
        self.refreshesUsed = refreshesUsed
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.surplus = surplus
        self.rounds = rounds
    }
}
