import Foundation
import Logging

/// Sessions for one photo each: the first answer, up to `refreshLimit` refreshes, and the history.
public struct SessionService: Sendable {
    let generator: PromptGenerator
    let store: any PromptStore
    let assembler: RoundAssembler
    let clock: any WallClock
    let locks = SessionLocks()
    /// Refreshes allowed per session (`SESSIONS_REFRESH_LIMIT`).
    public let refreshLimit: Int
    /// How long a session answers (`SESSIONS_TTL`).
    let sessionTTL: TimeInterval

    /// Creates the service.
    public init(
        generator: PromptGenerator,
        store: any PromptStore,
        fallbacks: FallbackPrompts,
        clock: any WallClock,
        refreshLimit: Int,
        sessionTTL: TimeInterval
    ) {
        self.generator = generator
        self.store = store
        self.assembler = RoundAssembler(fallbacks: fallbacks)
        self.clock = clock
        self.refreshLimit = refreshLimit
        self.sessionTTL = sessionTTL
    }

    /// Starts a session for `photo` and returns its first three prompts.
    public func start(photo: PhotoMetadata, userID: String?, locale: String, readsCache: Bool, logger: Logger) async throws -> SessionAnswer {
        let input = PromptGenerator.Input(photo: photo, locale: locale, round: 0, alreadyShown: [], readsCache: readsCache)
        let generation = await generator.generate(input, logger: logger)
        let draft = assembler.draft(from: generation, alreadyShown: [])
        let now = clock.now
        let session = NewSession(
            id: RandomIdentifier.make(prefix: "s_"),
            userID: userID,
            locale: locale,
            photo: photo,
            template: generator.templateIdentity,
            createdAt: now,
            expiresAt: now.addingTimeInterval(sessionTTL),
            firstRound: draft
        )
        var timing = generation.timing
        let (_, duration) = try await measured {
            // Issued together, the session and the cache entry land in the same group commit.
            async let cached: Void = cache(generation.cacheEntry, logger: logger)
            try await store.createSession(session)
            await cached
        }
        timing.add("store", duration)
        return SessionAnswer(sessionID: session.id, round: draft, refreshesUsed: 0, template: generator.templateIdentity, timing: timing)
    }

    /// Returns three prompts for the session's photo that it has not shown before.
    ///
    /// - Throws: ``SessionError`` when the session is unknown or its refreshes are spent.
    public func refresh(sessionID: String, readsCache: Bool, logger: Logger) async throws -> SessionAnswer {
        switch try await store.reserveRefresh(sessionID: sessionID, limit: refreshLimit, now: clock.now) {
        case .notFound:
            throw SessionError.notFound
        case .limitReached(let used):
            throw SessionError.refreshLimitReached(refreshesUsed: used)
        case .reserved(let ordinal):
            do {
                return try await locks.withLock(sessionID) {
                    try await refresh(sessionID: sessionID, ordinal: ordinal, readsCache: readsCache, logger: logger)
                }
            } catch {
                // Detached so that a cancelled request still gives its slot back.
                let store = self.store
                await Task.detached { try? await store.releaseRefresh(sessionID: sessionID) }.value
                throw error
            }
        }
    }

    /// Generates and commits one reserved refresh; runs under the session's lock.
    private func refresh(sessionID: String, ordinal: Int, readsCache: Bool, logger: Logger) async throws -> SessionAnswer {
        // Read again under the lock: the refresh before this one may just have added prompts to avoid.
        guard let session = try await store.session(id: sessionID, now: clock.now) else { throw SessionError.notFound }
        let generation: Generation
        let shownKeys = session.shownRepeatKeys
        let unseenSurplus = session.surplus.filter { !shownKeys.contains($0.repeatKey) }
        if unseenSurplus.count >= FallbackPrompts.promptsPerAnswer {
            // The model already wrote enough good prompts last time: no backend call, and it counts as a refresh.
            var timing = ServerTiming()
            timing.add("surplus", .zero, detail: "\(unseenSurplus.count) unseen")
            generation = .prompts(unseenSurplus, from: .model, timing: timing)
        } else {
            let shown = session.rounds.flatMap(\.prompts).map(\.text)
            let input = PromptGenerator.Input(
                photo: session.photo,
                locale: session.locale,
                round: ordinal,
                alreadyShown: shown,
                readsCache: readsCache
            )
            generation = await generator.generate(input, logger: logger)
        }
        try Task.checkCancellation()
        var timing = generation.timing
        let (committed, duration) = try await measured {
            async let cached: Void = cache(generation.cacheEntry, logger: logger)
            let committed = try await store.commitRefresh(sessionID: sessionID, now: clock.now) { [assembler] shownKeys in
                assembler.draft(from: generation, alreadyShown: shownKeys)
            }
            await cached
            return committed
        }
        timing.add("store", duration)
        return SessionAnswer(
            sessionID: sessionID,
            round: committed.draft,
            refreshesUsed: committed.refreshesUsed,
            template: generator.templateIdentity,
            timing: timing
        )
    }

    /// Writes a model answer to the cache. A failure is logged, never returned: the user's answer does not depend on it.
    private func cache(_ entry: CacheEntry?, logger: Logger) async {
        guard let entry else { return }
        do {
            try await store.cachePrompts(entry.prompts, forKey: entry.key, expiresAt: entry.expiresAt)
        } catch {
            logger.error("cache write failed", metadata: ["error": "\(error)"])
        }
    }

    /// The session with its history.
    ///
    /// - Throws: ``SessionError/notFound`` when it is unknown or expired.
    public func session(id: String) async throws -> SessionSnapshot {
        guard let session = try await store.session(id: id, now: clock.now) else { throw SessionError.notFound }
        return session
    }
}

/// One answer: the round shown and the session's count after it.
public struct SessionAnswer: Sendable {
    /// The session's id.
    public var sessionID: String
    /// The three prompts and where they came from.
    public var round: RoundDraft
    /// Refreshes counted so far.
    public var refreshesUsed: Int
    /// The template that rendered the request.
    public var template: TemplateIdentity
    /// Where the time went, for `Server-Timing`.
    public var timing: ServerTiming
}

/// Why a session request was refused.
public enum SessionError: Error, Equatable {
    /// No such session, or it expired.
    case notFound
    /// The session's refreshes are all used or in flight.
    case refreshLimitReached(refreshesUsed: Int)
}
