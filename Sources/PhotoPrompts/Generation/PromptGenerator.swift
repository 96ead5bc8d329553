import Foundation
import Logging

/// The pipeline for one request: render the template, try the cache, call the backend within the deadline,
/// validate, and cache what the model produced.
///
/// It never throws for a backend's fault: every failure becomes a ``Generation/fallback(_:)`` with a reason.
public struct PromptGenerator: Sendable {
    /// How many candidates the template asks the model for, so that three survive the word rule.
    public static let candidateCount = 6

    let template: PromptTemplate
    let backend: any LLMBackend
    let store: any PromptStore
    let clock: any WallClock
    let validator = PromptValidator()
    /// The whole budget for the backend call (`LLM_TIMEOUT`).
    let timeout: Duration
    /// How long cache entries live (`CACHE_TTL`).
    let cacheTTL: TimeInterval

    /// What to generate for.
    public struct Input: Sendable {
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
    }

    /// The template identity this generator renders with.
    public var templateIdentity: TemplateIdentity { template.identity }

    /// Runs the pipeline once.
    public func generate(_ input: Input, logger: Logger) async -> Generation {
        let shownKeys = Set(input.alreadyShown.map(PromptNormalizer.repeatKey))
        let key = CacheKey(photo: input.photo, locale: input.locale, template: template.identity, backend: backend.identity, round: input.round)
            .hashed
        if input.readsCache, let cached = await cachedCandidates(forKey: key, avoiding: shownKeys, logger: logger) {
            return .prompts(cached, from: .cache)
        }
        let context = TemplateContext(
            photo: input.photo, locale: input.locale, candidateCount: Self.candidateCount, round: input.round, avoid: input.alreadyShown
        )
        let reply: String
        do {
            reply = try await callBackend(with: template.render(context))
        } catch let error as BackendError {
            logger.warning("backend failed", metadata: ["provider": "\(backend.identity.provider)", "error": "\(error)"])
            return .fallback(error.isTimeout ? .timeout : .backendError)
        } catch {
            logger.warning("backend call ended", metadata: ["error": "\(error)"])
            return .fallback(.backendError)
        }
        let validation = validator.validate(CandidateParser.candidates(in: reply))
        if !validation.rejected.isEmpty {
            logger.debug(
                "candidates rejected",
                metadata: ["reasons": "\(validation.rejected.map(\.reason.description))", "kept": "\(validation.kept.count)"]
            )
        }
        // Only a full answer is cached: a short one would pin fallback-filled rounds for a week.
        if validation.kept.count >= FallbackPrompts.promptsPerAnswer {
            await store(validation.kept, forKey: key, logger: logger)
        }
        let unseen = validation.kept.filter { !shownKeys.contains($0.repeatKey) }
        return unseen.isEmpty ? .fallback(.invalidOutput) : .prompts(unseen, from: .model)
    }

    /// Calls the backend, and independently enforces the deadline in case the backend overruns its own timeout.
    private func callBackend(with prompt: RenderedPrompt) async throws -> String {
        let backend = self.backend
        let timeout = self.timeout
        return try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask { try await backend.complete(prompt, timeout: timeout) }
            group.addTask {
                try await Task.sleep(for: timeout + .milliseconds(100))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let reply = first else {
                throw BackendError.timedOut("no reply within \(timeout)")
            }
            return reply
        }
    }

    private func cachedCandidates(forKey key: String, avoiding shownKeys: Set<String>, logger: Logger) async -> [ValidPrompt]? {
        do {
            guard let cached = try await store.cachedPrompts(forKey: key, now: clock.now) else { return nil }
            let unseen = cached.filter { !shownKeys.contains($0.repeatKey) }
            // A hit that cannot fill a round is treated as a miss: the model can still write fresh prompts.
            return unseen.count >= FallbackPrompts.promptsPerAnswer ? unseen : nil
        } catch {
            logger.error("cache read failed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private func store(_ prompts: [ValidPrompt], forKey key: String, logger: Logger) async {
        do {
            try await store.cachePrompts(prompts, forKey: key, expiresAt: clock.now.addingTimeInterval(cacheTTL))
        } catch {
            logger.error("cache write failed", metadata: ["error": "\(error)"])
        }
    }
}
