/// What the pipeline produced for one request, before it is shaped into a round of three.
public struct Generation: Sendable {
    /// `model` or `cache` when there are candidates; `fallback` when there are none.
    public var source: PromptSource
    /// Why there are no candidates, when `source` is `fallback`.
    public var fallbackReason: FallbackReason?
    /// Valid prompts not yet shown in the session, best first. May hold more than three.
    public var candidates: [ValidPrompt]

    /// A generation that yielded usable candidates.
    public static func prompts(_ candidates: [ValidPrompt], from source: PromptSource) -> Generation {
        Generation(source: source, fallbackReason: nil, candidates: candidates)
    }

    /// A generation that yielded nothing usable.
    public static func fallback(_ reason: FallbackReason) -> Generation {
        Generation(source: .fallback, fallbackReason: reason, candidates: [])
    }
}
