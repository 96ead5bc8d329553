import PromptDomain

/// The body of `POST /v1/prompts` as the client sent it. Only `photo` is required; unknown fields are ignored.
public struct PromptRequest: Decodable, Sendable {
    public var userID: String?
    /// The user's locale, e.g. "en-US".
    public var locale: String?
    public var photo: PhotoMetadata
}

/// A ``PromptRequest`` that passed ``PromptRequest/validated()``: bounded, with control characters removed.
public struct ValidatedPromptRequest: Sendable, Equatable {
    public var userID: String?
    /// Canonical; en-US when the client sent none. Everything downstream reads the language from this one value.
    public var locale: LanguageTag
    public var photo: PhotoMetadata
}
