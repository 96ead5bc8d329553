import Foundation
import Logging
import PromptDomain
import PromptStores
import PromptTemplates
import Tracing

extension SessionService {
    /// Starts a session for `photo` and returns its first three prompts; `stream` hears them as the model writes.
    /// One plan, one store read (the user's history with the cached entry), the generator, and one durable write of
    /// the session with its round and the history rows.
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
        let plan = tracedPlan { templates.live.plan(forVariant: nil, photo: photo, language: locale, now: generator.clock.now) }
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
        let now = generator.clock.now
        let remembered = readsCache ? generator.cache.inMemory(forKey: key, now: now) : nil
        (input.seen, input.cached) = await generator.tracer.withSpan("history and cache read") { span in
            span.attributes["photo_prompts.cache_in_memory"] = remembered != nil
            return await readHistory(of: caller, language: locale, key: key, remembered: remembered, readsCache: readsCache, now: now, logger: logger)
        }
        input.seen = input.seen.framing(plan.photoSignature, angles: plan.angles)
        let seen = input.seen
        let generation = await generator.generate(input, logger: logger)
        // A client that left, or a deadline that passed, keeps no session: nobody saw these cards.
        try Task.checkCancellation()
        var draft = RoundAssembler(for: plan).draft(from: generation, seen: seen, streamed: streamed != nil)
        draft = streamed?.keepingIDs(of: draft) ?? draft
        draft.templateVersion = identity.version
        let createdAt = generator.clock.now
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
        if let entry = generation.cacheEntry { generator.cache.stored(entry, at: createdAt) }
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

    /// The user's history and, unless memory holds it or it isn't wanted, the cache entry under `key`: one store visit.
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
            if let entry { generator.cache.stored(entry, at: now) }
            return (seen, .some(entry))
        } else {
            let seen = await history.seen(client: caller.client, userID: caller.userID, language: locale, now: now, logger: logger)
            return (seen, remembered.map { .some($0) })
        }
    }
}
