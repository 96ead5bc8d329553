import Foundation
import Logging

/// The pipeline for one request: try the cache, render the template, ask the backends within one deadline,
/// validate, re-ask once if too few survive and time allows, and cache what the model produced.
///
/// It never throws for a backend's fault: every failure becomes a ``Generation/fallback(_:timing:)`` with a reason.
public struct PromptGenerator: Sendable {
    let chain: BackendChain
    let store: any PromptStore
    let clock: any WallClock
    let inFlight = SingleFlight<Generation, SharedPrompts>()
    /// Caps backend work at once; past it, requests fall back as `unavailable` at once.
    let admission: BackendAdmission
    /// Backend attempts and cache lookups are counted here.
    let metrics: ServiceMetrics
    /// The whole budget of one request's backend work (`LLM_TIMEOUT`): re-asks and failovers share it.
    let timeout: Duration
    /// How long cache entries live (`CACHE_TTL`).
    let cacheTTL: TimeInterval

    /// Creates a generator.
    public init(
        chain: BackendChain,
        store: any PromptStore,
        clock: any WallClock,
        timeout: Duration,
        cacheTTL: TimeInterval,
        maxInFlight: Int = 1024,
        metrics: ServiceMetrics = ServiceMetrics()
    ) {
        self.metrics = metrics
        self.admission = BackendAdmission(limit: maxInFlight)
        self.chain = chain
        self.store = store
        self.clock = clock
        self.timeout = timeout
        self.cacheTTL = cacheTTL
    }

    /// What to generate for.
    public struct Input: Sendable {
        /// The template to render, taken from the live set once per request.
        public var template: PromptTemplate
        /// The photo.
        public var photo: PhotoMetadata
        /// The locale.
        public var locale: String
        /// 0 for the first prompts, n for the n-th refresh.
        public var round: Int
        /// Prompts already shown in the session, as text.
        public var alreadyShown: [String]
        /// `false` when the client sent `Cache-Control: no-cache`.
        public var readsCache: Bool
        /// The request's own deadline, when it is sooner than `LLM_TIMEOUT` from now: a refresh that waited for its
        /// turn has less time left for the model.
        public var deadline: ContinuousClock.Instant?
        /// For a client that streams: told when the model is about to be asked, and given each good prompt as soon
        /// as the streamed reply has it. Nil asks the backends for whole replies.
        public var stream: GenerationStream?

        /// Creates an input.
        public init(
            template: PromptTemplate,
            photo: PhotoMetadata,
            locale: String,
            round: Int,
            alreadyShown: [String],
            readsCache: Bool,
            deadline: ContinuousClock.Instant? = nil,
            stream: GenerationStream? = nil
        ) {
            self.template = template
            self.photo = photo
            self.locale = locale
            self.round = round
            self.alreadyShown = alreadyShown
            self.readsCache = readsCache
            self.deadline = deadline
            self.stream = stream
        }
    }

    /// Runs the pipeline once.
    public func generate(_ input: Input, logger: Logger) async -> Generation {
        let shownKeys = Set(input.alreadyShown.map(PromptNormalizer.repeatKey))
        let key = cacheKey(for: input).hashed
        var timing = ServerTiming()
        if input.readsCache {
            let (cached, duration) = await measured { await cachedCandidates(forKey: key, avoiding: shownKeys, logger: logger) }
            timing.add("cache", duration, detail: cached == nil ? "miss" : "hit")
            metrics.cacheLookup(hit: cached != nil)
            if let cached {
                return .prompts(cached, from: .cache, timing: timing)
            }
        }
        // Identical requests in flight (same key) share one backend call; each filters by its own session.
        let (shared, joined) = await inFlight.run(key, shared: SharedPrompts.init) { found in
            // A streamed joiner shows what the run has found, now and as it goes, less what its session has shown.
            guard let stream = input.stream else { return }
            stream.modelAsked()
            found.listen { prompt in if !shownKeys.contains(prompt.repeatKey) { stream.prompt(prompt) } }
        } _: { found in
            await generateFromBackends(input, cacheKey: key, found: found, logger: logger)
        }
        var generation = shared.unseen(by: shownKeys)
        if joined {
            timing.add("singleflight", .zero, detail: "joined")
            // The first caller caches the shared answer and counts it; the others neither write nor count it again.
            generation.cacheEntry = nil
            generation.judged = false
        }
        timing.append(shared.timing)
        generation.timing = timing
        return generation
    }

    /// Everything that shapes the answer to `input`, as the cache knows it.
    func cacheKey(for input: Input) -> CacheKey {
        let template = input.template
        return CacheKey(
            photo: input.photo,
            locale: input.locale,
            template: template.identity,
            backends: chain.identities,
            parameters: template.settings.parameters,
            candidateCount: template.settings.candidateCount,
            lists: template.listsIdentity,
            round: input.round,
            age: PhotoMoment(takenAt: input.photo.takenAt, latitude: nil, longitude: nil, now: clock.now).map(CacheKey.Age.init)
        )
    }

    private func generateFromBackends(_ input: Input, cacheKey: String, found: SharedPrompts, logger: Logger) async -> Generation {
        let deadline = min(ContinuousClock.now + timeout, input.deadline ?? .now + timeout)
        var timing = ServerTiming()
        guard admission.enter() else {
            timing.add("admission", .zero, detail: "\(admission.limit) backend calls in flight")
            logger.warning("backend capacity reached; answering with fallbacks", metadata: ["limit": "\(admission.limit)"])
            return .fallback(.unavailable, timing: timing)
        }
        defer { admission.leave() }
        let shownKeys = Set(input.alreadyShown.map(PromptNormalizer.repeatKey))
        let template = input.template
        let validator = template.validator(for: LanguageTag(locale: input.locale), photo: input.photo)
        let context = TemplateContext(
            photo: input.photo,
            locale: input.locale,
            candidateCount: template.settings.candidateCount,
            round: input.round,
            avoid: input.alreadyShown,
            now: clock.now
        )
        let (rendered, renderDuration) = await measured { template.render(context) }
        timing.add("render", renderDuration)
        let language = LanguageTag(locale: input.locale)
        var request = LLMRequest(prompt: rendered, parameters: template.settings.parameters, constraint: template.constraint(for: language))
        let early = input.stream.map { stream in
            found.listen(stream.prompt)
            return EarlyPrompts(validator: validator, alreadyShown: shownKeys, onPrompt: found.publish)
        }
        input.stream?.modelAsked()

        let first = await ReplyObservation.$current.withValue(early) {
            await chain.complete(request, deadline: deadline, logger: logger) { reply in
                validator.keepsAny(ReplyExtractor.candidates(in: reply.completeText))
            }
        }
        record(first.attempts, pass: 1, in: &timing)
        guard case .success(let answer) = first.result else {
            let reason = if case .failure(let error) = first.result { error.reason } else { FallbackReason.backendError }
            // A stream cut after some prompts were shown keeps them; the fallbacks fill the rest, and say why.
            if let shown = early?.shown, !shown.isEmpty {
                var generation = Generation.prompts(shown, from: .model, timing: timing)
                generation.fallbackReason = reason
                generation.judged = true
                return generation
            }
            return .fallback(reason, timing: timing)
        }
        let identity = answer.link.backend.identity
        var usage = answer.reply.usage
        var (validation, validateDuration) = await measured { validator.validate(ReplyExtractor.candidates(in: answer.reply.completeText)) }
        timing.add("validate", validateDuration)
        // Prompts already streamed come first, whichever call wrote them (a backend that failed after them, too), and
        // count towards the three before a re-ask is weighed.
        var kept = early?.leading(validation.kept) ?? validation.kept
        var rejected = validation.rejected
        var reasked = false

        let needed = FallbackPrompts.promptsPerAnswer - kept.filter { !shownKeys.contains($0.repeatKey) }.count
        if needed > 0, validation.suggestsReaskHelps, await hasTimeForAnotherCall(to: answer.link, before: deadline) {
            request.messages.append(.init(role: "assistant", content: answer.reply.text))
            request.messages.append(
                .init(
                    role: "user",
                    content: ReaskFeedback.message(for: validation, needed: needed, rule: validator.wordRule, checks: template.settings.checks)
                )
            )
            let second = await ReplyObservation.$current.withValue(early) {
                await chain.ask(answer.link, request, deadline: deadline, logger: logger)
            }
            record(second.attempts, pass: 2, in: &timing)
            reasked = true
            if case .success(let reask) = second.result {
                let alreadyKept = shownKeys.union(kept.map(\.repeatKey))
                usage = TokenUsage.sum(usage, reask.reply.usage)
                (validation, _) = await measured {
                    validator.validate(ReplyExtractor.candidates(in: reask.reply.completeText), alreadyShown: alreadyKept)
                }
                kept += validation.kept
                rejected += validation.rejected
            }
        }
        // And the re-ask's streamed prompts too: the answer shows each where it was shown.
        kept = early?.leading(kept) ?? kept
        for index in kept.indices { kept[index].answeredBy = identity }
        let unseen = kept.filter { !shownKeys.contains($0.repeatKey) }
        var generation = unseen.isEmpty ? Generation.fallback(.invalidOutput, timing: timing) : .prompts(unseen, from: .model, timing: timing)
        generation.rejected = rejected
        generation.reasked = reasked
        generation.judged = true
        generation.usage = usage
        // Only a full answer is cached: a short one would pin fallback-filled rounds for a week. The caller writes it
        // together with the session, so the model path pays for one commit, not two.
        if kept.count >= FallbackPrompts.promptsPerAnswer {
            generation.cacheEntry = CacheEntry(key: cacheKey, prompts: kept, expiresAt: clock.now.addingTimeInterval(cacheTTL))
        }
        return generation
    }

    /// A re-ask is worth it only if the backend usually answers in less time than is left.
    private func hasTimeForAnotherCall(to link: BackendChain.Link, before deadline: ContinuousClock.Instant) async -> Bool {
        let remaining = deadline - .now
        let typical = await link.latency.p90 ?? .zero
        return remaining > typical + .milliseconds(50)
    }

    private func record(_ attempts: [BackendChain.Attempt], pass: Int, in timing: inout ServerTiming) {
        for (index, attempt) in attempts.enumerated() {
            metrics.backendAttempt(attempt.identity, outcome: attempt.outcome, duration: attempt.duration)
            if let usage = attempt.usage { metrics.backendTokens(attempt.identity, usage) }
            let name = pass == 1 ? "backend-\(index + 1)" : "reask"
            timing.add(name, attempt.duration, detail: "\(attempt.identity.provider)/\(attempt.identity.model) \(attempt.outcome)")
        }
    }

    private func cachedCandidates(forKey key: String, avoiding shownKeys: Set<String>, logger: Logger) async -> [ValidPrompt]? {
        do {
            guard let cached = try await store.cacheEntry(forKey: key, now: clock.now)?.prompts else { return nil }
            let unseen = cached.filter { !shownKeys.contains($0.repeatKey) }
            // A hit that cannot fill a round is treated as a miss: the model can still write fresh prompts.
            return unseen.count >= FallbackPrompts.promptsPerAnswer ? unseen : nil
        } catch {
            logger.error("cache read failed", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
