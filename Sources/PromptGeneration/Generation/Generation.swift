import PromptBackends
import PromptDomain

/// What the pipeline produced for one request, before it is shaped into a round of three.
public struct Generation: Sendable {
    /// `model` or `cache` when there are candidates; `fallback` when there are none.
    public var source: PromptSource
    /// Why there are no candidates (`fallback`), or no more, for a streamed reply cut after some were shown.
    public var fallbackReason: FallbackReason?
    /// Valid prompts not yet shown in the session, best first. Usually more than three: the rest is surplus.
    public var candidates: [ValidPrompt]
    public var timing = ServerTiming()
    /// A full model answer to cache, written by the caller in the same commit as the session it shows up in.
    public var cacheEntry: CacheEntry?
    /// Candidates the word rule rejected, with reasons, for operators' tools and logs.
    public var rejected: [PromptRejection] = []
    /// Whether the model was asked a second time because too few candidates passed.
    public var reasked = false
    /// The backend calls this request made: first asks, failovers to the next backend and the re-ask, whatever
    /// their outcome; a backend skipped for its breaker is no call. 0 for cache, surplus and shared answers.
    public var modelCalls = 0
    /// Good candidates dropped as near-duplicates of another in the same answer: the model's variety, for `eval`.
    public var nearDuplicates = 0
    /// Whether a backend answer was judged for this request, so its candidates and rejections count. False for cache
    /// and surplus rounds, a backend failure, and a joiner of an identical request: a shared answer counts once.
    public var judged = false
    /// The tokens the backend calls of this request cost, as the providers reported them (first call and re-ask).
    public var usage: TokenUsage?

    public static func prompts(_ candidates: [ValidPrompt], from source: PromptSource, timing: ServerTiming = ServerTiming()) -> Generation {
        Generation(source: source, fallbackReason: nil, candidates: candidates, timing: timing)
    }

    public static func fallback(_ reason: FallbackReason, timing: ServerTiming = ServerTiming()) -> Generation {
        Generation(source: .fallback, fallbackReason: reason, candidates: [], timing: timing)
    }

    /// The same generation for a caller who has seen `seen`.
    package func unseen(by seen: SeenPrompts) -> Generation {
        guard source != .fallback else { return self }
        let unseen = seen.unseen(candidates)
        var generation = unseen.isEmpty ? Generation.fallback(.allSeen, timing: timing) : .prompts(unseen, from: source, timing: timing)
        generation.cacheEntry = cacheEntry
        if !unseen.isEmpty { generation.fallbackReason = fallbackReason }
        generation.rejected = rejected
        generation.usage = usage
        generation.reasked = reasked
        generation.modelCalls = modelCalls
        generation.nearDuplicates = nearDuplicates
        generation.judged = judged
        return generation
    }
}
