import Foundation
import Logging
import PromptBackends
import PromptDomain
import PromptStores
import PromptTemplates
import Tracing

/// The pipeline for one request: try the cache, render the template, ask the backends within one deadline,
/// validate, re-ask once if too few survive and time allows, and cache what the model produced.
///
/// It never throws for a backend's fault: every failure becomes a ``Generation/fallback(_:timing:)`` with a reason.
public struct PromptGenerator: Sendable {
    package let chain: BackendChain
    package let cache: any PromptCacheStore
    package let clock: any WallClock
    package let inFlight = SingleFlight<Generation, SharedPrompts>()
    /// Caps backend work at once; past it, requests fall back as `unavailable` at once.
    package let admission: BackendAdmission
    package let metrics: ServiceMetrics
    /// The whole budget of one request's backend work (`LLM_TIMEOUT`): re-asks and failovers share it.
    package let timeout: Duration
    /// How long cache entries live (`CACHE_TTL`).
    package let cacheTTL: TimeInterval
    /// The request's spans: the chain's tracer, which the model calls use.
    package var tracer: any Tracer { chain.tracer }

    public init(
        chain: BackendChain,
        cache: any PromptCacheStore,
        clock: any WallClock,
        timeout: Duration,
        cacheTTL: TimeInterval,
        maxInFlight: Int = 1024,
        metrics: ServiceMetrics = ServiceMetrics()
    ) {
        self.metrics = metrics
        self.admission = BackendAdmission(limit: maxInFlight)
        self.chain = chain
        self.cache = cache
        self.clock = clock
        self.timeout = timeout
        self.cacheTTL = cacheTTL
    }

    public struct Input: Sendable {
        /// What the templates hand the request: its version, messages, judge, copy and fallbacks.
        public var plan: RequestPlan
        /// 0 for the first prompts, n for the n-th refresh.
        public var round: Int
        /// Prompts already shown in the session, as text: the model is told to avoid them.
        public var alreadyShown: [String]
        /// Everything the user has seen (the session's prompts, their history): no exact or near repeat is served.
        public var seen: SeenPrompts
        /// `false` when the client sent `Cache-Control: no-cache`.
        public var readsCache: Bool
        /// The cache entry for this key if read already (with the history): `.some(nil)` for none; nil: read it.
        public var cached: CacheEntry??
        /// This input's hashed ``CacheKey``, when the caller worked it out already.
        public var cacheKeyHash: String?
        /// The request's own deadline if sooner than `LLM_TIMEOUT` from now: a refresh that waited has less time left.
        public var deadline: ContinuousClock.Instant?
        /// For a streaming client: told when the model is asked, and given each good prompt early; nil: whole replies.
        public var stream: GenerationStream?

        public init(
            plan: RequestPlan,
            round: Int,
            alreadyShown: [String],
            seen: SeenPrompts? = nil,
            readsCache: Bool,
            cached: CacheEntry?? = nil,
            deadline: ContinuousClock.Instant? = nil,
            stream: GenerationStream? = nil
        ) {
            self.cached = cached
            self.plan = plan
            self.round = round
            self.alreadyShown = alreadyShown
            self.seen = (seen ?? SeenPrompts(language: plan.language, shownTexts: alreadyShown)).framing(plan.photoSignature, angles: plan.angles)
            self.readsCache = readsCache
            self.deadline = deadline
            self.stream = stream
        }

        /// When the backends must have answered: `timeout` after `start`, or the request's own deadline if sooner.
        func backendDeadline(from start: ContinuousClock.Instant, timeout: Duration) -> ContinuousClock.Instant {
            min(start + timeout, deadline ?? start + timeout)
        }
    }

    public func generate(_ input: Input, logger: Logger) async -> Generation {
        let deadline = input.backendDeadline(from: .now, timeout: timeout)
        var request = input
        let seen = input.seen
        let key = input.cacheKeyHash ?? cacheKey(for: input).hashed
        var timing = ServerTiming()
        if input.readsCache {
            let (lookup, duration) = await measured { await cachedCandidates(forKey: key, read: input.cached, unseenBy: seen, logger: logger) }
            metrics.cacheLookup(hit: lookup.isHit)
            switch lookup {
            case .hit(let cached):
                timing.add("cache", duration, detail: "hit")
                return .prompts(cached, from: .cache, timing: timing)
            case .met(let texts):
                // The user met this photo's cached prompts: the model is asked for others, and told which.
                timing.add("cache", duration, detail: "met")
                request.alreadyShown = Array((input.alreadyShown + texts).suffix(Self.avoidLimit))
            case .miss:
                timing.add("cache", duration, detail: "miss")
            }
        }
        let input = request
        let shownKeys = Set(input.alreadyShown.map(PromptNormalizer.repeatKey))
        // Identical requests in flight (same key) share one backend call; each filters by its own session.
        let (shared, joined) = await tracer.withSpan("single-flight") { span in
            let run = await sharedRun(input, key: key, seen: seen, shownKeys: shownKeys, logger: logger)
            span.attributes["photo_prompts.joined"] = run.joined
            return run
        }
        var generation = shared.unseen(by: seen)
        if joined, generation.fallbackReason == .allSeen, input.stream == nil, deadline - .now > .milliseconds(100) {
            // The joined answer holds nothing new to this user: the model is asked again, told which to avoid.
            var own = input
            own.alreadyShown = Array((input.alreadyShown + shared.candidates.map(\.text)).suffix(Self.avoidLimit))
            own.deadline = deadline
            let ownKeys = Set(own.alreadyShown.map(PromptNormalizer.repeatKey))
            generation = await generateFromBackends(own, shownKeys: ownKeys, cacheKey: key, found: SharedPrompts(), logger: logger)
            generation.cacheEntry = nil
        } else if joined {
            timing.add("singleflight", .zero, detail: "joined")
            // The first caller caches the shared answer and counts it; the others neither write nor count it again.
            generation.cacheEntry = nil
            generation.judged = false
            generation.modelCalls = 0
        }
        timing.append(shared.timing)
        generation.timing = timing
        return generation
    }

    /// The backend work for `key`, run once for every identical request in flight: the others join and wait for it.
    private func sharedRun(
        _ input: Input,
        key: String,
        seen: SeenPrompts,
        shownKeys: Set<String>,
        logger: Logger
    ) async -> (value: Generation, joined: Bool) {
        await inFlight.run(key, shared: SharedPrompts.init) { found in
            // A streamed joiner shows what the run has found, now and as it goes, less what its session has shown.
            guard let stream = input.stream else { return }
            stream.modelAsked()
            found.listen { prompt in if !seen.contains(prompt) { stream.prompt(prompt) } }
        } _: { found in
            await generateFromBackends(input, shownKeys: shownKeys, cacheKey: key, found: found, logger: logger)
        }
    }

    /// Everything that shapes the answer to `input`, as the cache knows it.
    package func cacheKey(for input: Input) -> CacheKey {
        let plan = input.plan
        return CacheKey(
            photo: plan.photo,
            locale: plan.language.description,
            // The folder's own identity, as keys always named it: a variant's answers do not depend on its experiment.
            template: plan.template.assigned(to: plan.template.variant),
            backends: chain.identities,
            parameters: plan.parameters,
            candidateCount: plan.candidateCount,
            lists: plan.listsIdentity,
            round: input.round,
            age: plan.age.map { CacheKey.Age(isRecent: $0.isRecent, yearsAgo: $0.yearsAgo) }
        )
    }

    /// A re-ask is worth it only if the backend usually answers in less time than is left.
    package func hasTimeForAnotherCall(to link: BackendChain.Link, before deadline: ContinuousClock.Instant) -> Bool {
        let remaining = deadline - .now
        let typical = link.latency.p90 ?? .zero
        return remaining > typical + .milliseconds(50)
    }

    package func record(_ attempts: [BackendChain.Attempt], pass: Int, in timing: inout ServerTiming) {
        for (index, attempt) in attempts.enumerated() {
            metrics.backendAttempt(attempt.identity, outcome: attempt.outcome, duration: attempt.duration)
            if let usage = attempt.usage { metrics.backendTokens(attempt.identity, usage) }
            if let saved = attempt.savedTokens { metrics.backendTokensSaved(attempt.identity, saved) }
            let name = pass == 1 ? "backend-\(index + 1)" : "reask"
            timing.add(name, attempt.duration, detail: "\(attempt.identity.provider)/\(attempt.identity.model) \(attempt.outcome)")
        }
    }

    /// The most questions a request names for the model to avoid: the newest, about 200 tokens in English.
    package static let avoidLimit = 12

    /// What the cache holds for one request.
    private enum CacheLookup {
        /// Enough prompts the user has not met to fill a round.
        case hit([ValidPrompt])
        /// An entry, but too few of its prompts are new to the user: these are the ones they met.
        case met([String])
        case miss

        var isHit: Bool {
            if case .hit = self { true } else { false }
        }
    }

    private func cachedCandidates(forKey key: String, read: CacheEntry??, unseenBy seen: SeenPrompts, logger: Logger) async -> CacheLookup {
        do {
            let entry = if let read { read } else { try await cache.cacheEntry(forKey: key, now: clock.now) }
            guard let cached = entry?.prompts else { return .miss }
            // The cache is shared by every user with this photo; each is served only what they have not met.
            let unseen = seen.unseen(cached)
            // A hit that cannot fill a round with frames the month holds free is treated as a miss: the model can
            // still write fresh prompts, and is told which it should not write again.
            guard seen.fillsAnswer(unseen) else {
                return .met(cached.filter { seen.contains($0) || seen.holdsFrame($0) }.map(\.text))
            }
            return .hit(unseen)
        } catch {
            logger.error("cache read failed", metadata: ["error": "\(error)"])
            return .miss
        }
    }
}
