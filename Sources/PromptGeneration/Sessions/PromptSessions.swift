import Foundation
import Logging
import PromptDomain
import PromptStores
import PromptTemplates
import Tracing

/// Sessions for one photo each: the first answer, up to `refreshLimit` refreshes, and the history.
public struct PromptSessions: Sendable {
    package let generator: PromptGenerator
    package let store: any SessionStore
    /// The memory in front of the cache, told of each entry a session's commit wrote.
    package let promptCache: any PromptCacheStore
    package let templates: TemplateLibrary
    package let stats: StatsRecorder
    package let metrics: ServiceMetrics
    package let clock: any WallClock
    package let turns: RefreshTurns
    /// Refreshes allowed per session (`SESSIONS_REFRESH_LIMIT`).
    public let refreshLimit: Int
    /// How long a session answers (`SESSIONS_TTL`).
    package let sessionTTL: TimeInterval
    /// Each user's history: what they were shown in the last `historyWindow` is not shown to them again.
    package let history: UserHistory

    /// Creates the service.
    public init(
        generator: PromptGenerator,
        store: any SessionStore,
        cache: any PromptCacheStore,
        templates: TemplateLibrary,
        stats: StatsRecorder,
        metrics: ServiceMetrics = ServiceMetrics(),
        clock: any WallClock,
        refreshLimit: Int,
        sessionTTL: TimeInterval,
        history: UserHistory = .off
    ) {
        self.generator = generator
        self.store = store
        self.promptCache = cache
        self.templates = templates
        self.stats = stats
        self.metrics = metrics
        self.clock = clock
        self.turns = RefreshTurns(store: store, clock: clock, tracer: generator.tracer)
        self.refreshLimit = refreshLimit
        self.sessionTTL = sessionTTL
        self.history = history
    }

    /// The deadline of a prompt request that arrives at `start`: the model's whole budget, `LLM_TIMEOUT`. Every wait
    /// the request makes (a claim, a turn, the model) ends by then; only the store's last write comes after it.
    public func deadline(from start: ContinuousClock.Instant = .now) -> ContinuousClock.Instant {
        start + generator.timeout
    }

    /// Starts a session for `photo` and returns its first three prompts; `stream` hears them as the model writes.
    public func start(
        photo: PhotoMetadata,
        caller: Caller,
        locale: LanguageTag,
        readsCache: Bool,
        deadline: ContinuousClock.Instant,
        stream: SessionStream? = nil,
        logger: Logger
    ) async throws -> SessionAnswer {
        let streamed = stream.map(StreamedPrompts.init)
        // One look at the live set, one plan: a reload during this request cannot mix two versions.
        let plan = tracedPlan { templates.live.plan(forVariant: nil, photo: photo, language: locale, now: clock.now) }
        let identity = plan.template
        let logger = Self.logger(logger, for: identity)
        var input = PromptGenerator.Input(
            plan: plan,
            round: 0,
            alreadyShown: [],
            readsCache: readsCache,
            deadline: deadline,
            stream: streamed?.generationStream
        )
        // One visit before the answer: the history, with the cache entry unless memory holds it or it is not wanted.
        let key = generator.cacheKey(for: input).hashed
        input.cacheKeyHash = key
        let now = clock.now
        let remembered = readsCache ? promptCache.inMemory(forKey: key, now: now) : nil
        (input.seen, input.cached) = await generator.tracer.withSpan("history and cache read") { span in
            span.attributes["photo_prompts.cache_in_memory"] = remembered != nil
            return await readHistory(of: caller, language: locale, key: key, remembered: remembered, readsCache: readsCache, now: now, logger: logger)
        }
        input.seen = input.seen.framing(plan.photo, angles: plan.angles)
        let seen = input.seen
        let generation = await generator.generate(input, logger: logger)
        // A client that left, or a deadline that passed, keeps no session: nobody saw these cards.
        try Task.checkCancellation()
        var draft = RoundAssembler(for: plan).draft(from: generation, seen: seen, streamed: streamed != nil)
        draft = streamed?.keepingIDs(of: draft) ?? draft
        draft.templateVersion = identity.version
        let createdAt = clock.now
        let session = SessionSnapshot(
            id: RandomIdentifier.makeTimeOrdered(prefix: "s_"),
            owner: caller.client,
            userID: caller.userID,
            locale: locale,
            photo: photo,
            template: identity,
            refreshesUsed: 0,
            createdAt: createdAt,
            expiresAt: createdAt.addingTimeInterval(sessionTTL),
            surplus: draft.surplus,
            rounds: [draft]
        )
        var timing = generation.timing
        let (_, duration) = try await generator.tracer.withSpan("store write") { _ in
            try await measured {
                try await store.createSession(
                    session,
                    historyUntil: history.until(client: caller.client, userID: caller.userID, from: createdAt),
                    caching: generation.cacheEntry
                )
            }
        }
        if let entry = generation.cacheEntry { promptCache.stored(entry, at: createdAt) }
        timing.add("store", duration)
        let waited = ContinuousClock.now - (deadline - generator.timeout)
        record(
            draft,
            generation: generation,
            shown: RoundContext(template: identity, language: plan.copy.locale.description, photo: photo),
            firstAnswer: waited
        )
        return SessionAnswer(sessionID: session.id, round: draft, refreshesUsed: 0, template: identity, copy: plan.copy, timing: timing)
    }

    /// The user's history and, unless memory holds it or it is not wanted, the cache entry under `key`: one visit to
    /// the store.
    private func readHistory(
        of caller: Caller,
        language locale: LanguageTag,
        key: String,
        remembered: CacheEntry?,
        readsCache: Bool,
        now: Date,
        logger: Logger
    ) async -> (SeenPrompts, CacheEntry??) {
        if readsCache, remembered == nil,
            let (seen, entry) = await history.seen(
                client: caller.client,
                userID: caller.userID,
                language: locale,
                now: now,
                cacheKey: key,
                logger: logger
            )
        {
            if let entry { promptCache.stored(entry, at: now) }
            return (seen, .some(entry))
        } else {
            let seen = await history.seen(client: caller.client, userID: caller.userID, language: locale, now: now, logger: logger)
            return (seen, remembered.map { .some($0) })
        }
    }

    /// Counts a round shown: per template version for operators, and in the service's metrics.
    func record(_ round: SessionRound, generation: Generation, shown: RoundContext, firstAnswer: Duration?) {
        stats.recordRound(round, generation: generation, shown: shown, firstAnswer: firstAnswer)
        if let reason = round.fallbackReason { metrics.fallback(reason) }
        if generation.judged { metrics.rejections(generation.rejected) }
    }

    /// The plan `make` draws, as the request's `plan` span, which names the version it drew.
    func tracedPlan(_ make: () -> RequestPlan) -> RequestPlan {
        generator.tracer.withSpan("plan") { span in
            let plan = make()
            span.attributes["photo_prompts.template_version"] = plan.template.label
            span.attributes["photo_prompts.language"] = plan.language.description
            return plan
        }
    }

    /// Every line logged for a request names the template version that rendered it.
    static func logger(_ logger: Logger, for template: TemplateIdentity) -> Logger {
        var logger = logger
        logger[metadataKey: "template"] = "\(template.label)"
        return logger
    }

    /// Records that the user selected or dismissed a prompt the session showed.
    ///
    /// - Throws: ``SessionError/notFound`` or ``SessionError/promptNotFound``.
    public func feedback(sessionID: String, promptID: String, action: FeedbackAction, caller: Caller) async throws -> RecordedFeedback {
        let feedback = Feedback(sessionID: sessionID, promptID: promptID, action: action, at: clock.now, caller: caller)
        switch try await store.recordFeedback(feedback) {
        case .sessionNotFound:
            throw SessionError.notFound
        case .promptNotFound:
            throw SessionError.promptNotFound
        case .recorded(let recorded):
            stats.recordFeedback(recorded, language: templates.live.copy.copy(for: recorded.locale).locale.description)
            return recorded
        }
    }

    /// The session with its history.
    ///
    /// - Throws: ``SessionError/notFound`` when it is unknown or expired.
    public func session(id: String, caller: Caller) async throws -> SessionSnapshot {
        guard let session = try await store.session(id: id, now: clock.now), session.isVisible(to: caller) else {
            throw SessionError.notFound
        }
        return session
    }
}
