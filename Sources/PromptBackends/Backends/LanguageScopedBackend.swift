import PromptDomain

/// A backend that writes only some languages (`LLM_LANGUAGES=en` for SmolLM2, which writes English only).
///
/// The chain does not send it a request in another language: the next backend gets it, or, with none left, the
/// user gets the fallback copy in their language at once (`unsupported_language`), not English text the gate rejects.
public struct LanguageScopedBackend: LLMBackend {
    public let base: any LLMBackend
    /// The primary language subtags it writes.
    public let languages: Set<String>

    public init(_ base: any LLMBackend, languages: Set<String>) {
        self.base = base
        self.languages = languages
    }

    public var identity: BackendIdentity { base.identity }

    public func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        try await base.complete(request, timeout: timeout)
    }
}

extension LLMBackend {
    /// Whether the backend writes `language`: every backend does, unless scoped (``LanguageScopedBackend``).
    public func writes(_ language: LanguageTag) -> Bool {
        (self as? LanguageScopedBackend)?.languages.contains(language.language) ?? true
    }
}
