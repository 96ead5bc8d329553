import Foundation
import Logging
import PromptDomain
import PromptStores
import PromptTemplates
import Tracing

extension SessionService {
    /// Returns three prompts for the session's photo that it has not shown before: reserved with the turn, generated
    /// in it, committed with the turn's end.
    ///
    /// - Throws: ``SessionError`` when the session is unknown, its refreshes are spent, or another refresh of it
    ///   still runs at `deadline`.
    public func refresh(
        sessionID: String,
        caller: Caller,
        readsCache: Bool,
        deadline: ContinuousClock.Instant,
        stream: SessionStream? = nil,
        logger: Logger
    ) async throws -> SessionAnswer {
        let holder = RandomIdentifier.makeTimeOrdered(prefix: "t_")
        // The reservation reads the session and, with it, the user's history.
        let reservation = try await generator.tracer.withSpan("history read and reservation") { _ in
            try await store.reserveRefresh(
                sessionID: sessionID,
                limit: refreshLimit,
                now: generator.clock.now,
                caller: caller,
                turn: holder,
                historyLimit: history.limit
            )
        }
        switch reservation {
        case .notFound:
            throw SessionError.notFound
        case .limitReached(let used):
            generator.metrics.refreshLimitHit()
            // The message is in the session's language; the read is on this path only, never on a refresh served.
            let locale = try await store.session(id: sessionID, now: generator.clock.now)?.locale
            let copy = templates.live.copy.copy(for: locale ?? .english)
            throw SessionError.refreshLimitReached(refreshesUsed: used, copy: copy)
        case .pending(let used, let retryAfter):
            throw SessionError.refreshPending(refreshesUsed: used, retryAfterSeconds: max(1, Int(retryAfter.rounded(.up))))
        case .reserved(let ordinal, let start):
            do {
                return try await withTurn(sessionID, holder: holder, held: start != nil, until: deadline) {
                    let start = if let start { start } else { try await started(sessionID, logger: logger) }
                    return try await refresh(
                        start,
                        ordinal: ordinal,
                        turnHolder: holder,
                        readsCache: readsCache,
                        deadline: deadline,
                        streamed: stream.map(StreamedPrompts.init),
                        logger: logger
                    )
                }
            } catch {
                let store = self.store
                await giveBack { try await store.releaseRefresh(sessionID: sessionID) }
                throw error
            }
        }
    }

    /// Refreshes of one session take turns, in this process and across every instance sharing the store.
    ///
    /// Without turns two refreshes of one session would read the same history and surplus, both show the same next
    /// prompts, and the second commit would find them taken and fall back. The turn lives in the store (a holder and a
    /// lease on the session row), so it holds no connection while the model writes, and a process that dies holding
    /// it gives it up when the lease ends (`LLM_TIMEOUT` plus a small margin). A refresh waiting for it is woken when
    /// the turn ends in this process and asks the store again every quarter second in case it is held by another,
    /// never past its own request's deadline: then it is refused as in progress, to be retried.
    /// At most `SESSIONS_REFRESH_LIMIT` refreshes of a session ever wait, because slots are reserved first.
    ///
    /// Runs `body` while `holder` holds the turn of `sessionID`, taking it first unless it is `held` already (taken
    /// with the reservation). `body` ends the turn with its commit; when it throws or is cancelled, it ends here.
    /// The wait is the trace's `refresh turn wait` span: the time a refresh spent behind another of its session.
    ///
    /// - Throws: ``SessionError/refreshInProgress`` when the turn is still held at `deadline`.
    private func withTurn<Value: Sendable>(
        _ sessionID: String,
        holder: String,
        held: Bool,
        until deadline: ContinuousClock.Instant,
        _ body: () async throws -> Value
    ) async throws -> Value {
        if !held {
            try await generator.tracer.withSpan("refresh turn wait") { _ in
                while try await !store.takeRefreshTurn(sessionID: sessionID, holder: holder, now: generator.clock.now) {
                    guard try await turnEnds.pause(.milliseconds(250), on: sessionID, before: deadline) else {
                        throw SessionError.refreshInProgress
                    }
                }
            }
        }
        defer { turnEnds.wake(sessionID) }
        do {
            return try await body()
        } catch {
            let store = self.store
            await giveBack { try await store.endRefreshTurn(sessionID: sessionID, holder: holder) }
            throw error
        }
    }

    /// What a refresh whose turn came after its reservation reads once it holds the turn: the refresh before it may
    /// just have added prompts to avoid.
    private func started(_ sessionID: String, logger: Logger) async throws -> RefreshStart {
        guard let session = try await store.session(id: sessionID, now: generator.clock.now) else { throw SessionError.notFound }
        let entries = await history.entries(client: session.owner, userID: session.userID, now: generator.clock.now, logger: logger)
        return RefreshStart(session: session, history: entries)
    }

    /// Generates and commits one reserved refresh; runs in the session's turn, which its commit ends.
    private func refresh(
        _ start: RefreshStart,
        ordinal: Int,
        turnHolder: String,
        readsCache: Bool,
        deadline: ContinuousClock.Instant,
        streamed: StreamedPrompts?,
        logger: Logger
    ) async throws -> SessionAnswer {
        let session = start.session
        let sessionID = session.id
        // The session stays on the variant it was assigned, at that variant's live version.
        let plan = tracedPlan {
            templates.live.plan(forVariant: session.template.variant, photo: session.photo, language: session.locale, now: generator.clock.now)
        }
        let identity = plan.template.assigned(to: session.template.name)
        let logger = Self.logger(logger, for: identity)
        var met = SeenPrompts(language: session.locale, history: start.history).framing(plan.photoSignature, angles: plan.angles)
        met.insert(session.rounds.flatMap(\.prompts))
        let seen = met
        let generation = await nextGeneration(
            for: session,
            seen: seen,
            plan: plan,
            ordinal: ordinal,
            readsCache: readsCache,
            deadline: deadline,
            streamed: streamed,
            logger: logger
        )
        try Task.checkCancellation()
        var timing = generation.timing
        let assembler = RoundAssembler(for: plan)
        let now = generator.clock.now
        let (committed, duration) = try await generator.tracer.withSpan("store write") { _ in
            try await measured {
                try await store.commitRefresh(
                    sessionID: sessionID,
                    now: now,
                    historyUntil: history.until(client: session.owner, userID: session.userID, from: now),
                    turnHolder: turnHolder,
                    caching: generation.cacheEntry,
                    shown: Set(session.rounds.flatMap(\.prompts).map(\.repeatKey))
                ) { shownKeys in
                    // Made outside the store's transaction; made again with the keys a refresh that committed since
                    // the session was read showed.
                    var draft = assembler.draft(from: generation, seen: seen, alsoShown: shownKeys, streamed: streamed != nil)
                    draft = streamed?.keepingIDs(of: draft) ?? draft
                    draft.templateVersion = identity.version
                    return draft
                }
            }
        }
        if let entry = generation.cacheEntry { generator.cache.stored(entry, at: now) }
        timing.add("store", duration)
        record(
            committed.round,
            generation: generation,
            shown: RoundContext(template: identity, language: plan.copy.locale.description, photo: session.photo),
            firstAnswer: nil
        )
        return SessionAnswer(
            sessionID: sessionID,
            round: committed.round,
            refreshesUsed: committed.refreshesUsed,
            template: identity,
            copy: plan.copy,
            timing: timing
        )
    }

    /// A refresh's prompts: the session's surplus when it still holds three unseen that pass today's gate (no
    /// backend call, and it counts as a refresh), else the pipeline's.
    private func nextGeneration(
        for session: SessionSnapshot,
        seen: SeenPrompts,
        plan: RequestPlan,
        ordinal: Int,
        readsCache: Bool,
        deadline: ContinuousClock.Instant,
        streamed: StreamedPrompts?,
        logger: Logger
    ) async -> Generation {
        // Surplus was judged when it was written, perhaps by an older gate: it is judged again before it is shown.
        let gate = plan.validator
        let unseenSurplus = seen.unseen(session.surplus).filter(gate.stillPasses)
        if seen.fillsAnswer(unseenSurplus) {
            var timing = ServerTiming()
            timing.add("surplus", .zero, detail: "\(unseenSurplus.count) unseen")
            return .prompts(unseenSurplus, from: .model, timing: timing)
        }
        let input = PromptGenerator.Input(
            plan: plan,
            round: ordinal,
            alreadyShown: session.rounds.flatMap(\.prompts).map(\.text),
            seen: seen,
            readsCache: readsCache,
            deadline: deadline,
            stream: streamed?.generationStream
        )
        return await generator.generate(input, logger: logger)
    }
}
