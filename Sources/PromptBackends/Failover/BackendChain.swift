import Foundation
import Logging
import PromptDomain
import Tracing

/// The configured backends in order, each behind its own circuit breaker, sharing one deadline.
///
/// A backend that fails (timeout, 5xx, 429, connection error, unusable answer) hands over to the next with the time
/// that remains, never a fresh budget; all but the last may use two thirds of it, so a hung primary leaves the next
/// time to answer. Backends whose breaker is open, or that asked to wait (`Retry-After`), are skipped without a call:
/// all skipped, `unavailable` at once. One not writing the language is not asked (`unsupported_language` if none do).
public struct BackendChain: Sendable {
    package struct Link: Sendable {
        package let backend: any LLMBackend
        package let breaker: CircuitBreaker
        package let latency = RecentSamples<Duration>()
        package let completions = RecentSamples<Int>()
    }

    package let links: [Link]
    /// Keeps each call's budget: the call is cancelled when its share of the deadline has passed.
    package let deadlines: DeadlineWatch
    /// Where each model call is a span, and what writes its `traceparent` for the provider.
    package let tracer: any Tracer

    /// `backends` in order of preference; `deadlines` is the app's watch (a test's or `generate`'s chain gets its own).
    package init(
        backends: [any LLMBackend],
        failureThreshold: Int,
        coolDown: TimeInterval,
        retryAfterMax: TimeInterval = 120,
        clock: any WallClock,
        deadlines: DeadlineWatch = DeadlineWatch(),
        tracer: any Tracer = NoOpTracer()
    ) {
        self.deadlines = deadlines
        self.tracer = tracer
        links = backends.map {
            let breaker = CircuitBreaker(failureThreshold: failureThreshold, coolDown: coolDown, retryAfterMax: retryAfterMax, clock: clock)
            return Link(backend: $0, breaker: breaker)
        }
    }

    /// Every backend's identity, in order: part of the cache key.
    public var identities: [BackendIdentity] { links.map(\.backend.identity) }

    /// Each backend's breaker, as ``CircuitBreaker/openness``.
    public func breakerStates() async -> [(backend: String, state: Double)] {
        var states: [(backend: String, state: Double)] = []
        for link in links {
            states.append(("\(link.backend.identity.provider)/\(link.backend.identity.model)", await link.breaker.openness))
        }
        return states
    }

    package struct Outcome: Sendable {
        /// The reply and the link that gave it, or why there is none.
        package var result: Result<(reply: LLMReply, link: Link), FallbackError>
        /// One entry per backend tried or skipped, for `Server-Timing` and logs.
        package var attempts: [Attempt]
    }

    /// One backend's part in a pass.
    package struct Attempt: Sendable {
        package var identity: BackendIdentity
        package var duration: Duration
        package var outcome: String
        package var usage: TokenUsage?
        /// For a call cancelled as no one waited any more: the tokens it would have written, by the recent mean.
        package var savedTokens: Int?

        /// Whether a call went out: every attempt but one its breaker or a `Retry-After` skipped.
        package var madeCall: Bool { outcome != Self.skipped }

        package static let skipped = "skipped"
    }

    /// Why a pass produced no reply.
    package struct FallbackError: Error, Sendable { package var reason: FallbackReason }

    /// What `validator` made of a reply, and how long judging it took.
    package struct Judgement: Sendable {
        package var validation: PromptValidation
        package var duration: Duration
        /// Whether the reply gave a prompt to keep; one that gives none hands over to the next backend.
        package var isUsable: Bool { !validation.kept.isEmpty }
    }

    /// Asks each backend in turn until `validator` finds one's reply usable, or `deadline` passes; returns the pass
    /// and the judgement of the reply it ends with, so each reply is judged once, as it arrives. A pass ending on an
    /// unusable reply with time left returns that reply: the caller counts its rejections like any other's, and may
    /// re-ask that backend with feedback.
    package func complete(
        _ request: LLMRequest,
        judgedBy validator: PromptValidator,
        deadline: ContinuousClock.Instant,
        logger: Logger
    ) async -> (outcome: Outcome, judgement: Judgement?) {
        var attempts: [Attempt] = []
        // What the last backend asked (not skipped) gave: its unusable reply and judgement, or why there was none.
        var last: Result<(reply: LLMReply, link: Link), FallbackError>?
        var lastJudgement: Judgement?
        let links = request.constraint.map { constraint in self.links.filter { $0.backend.writes(constraint.language) } } ?? self.links
        guard !links.isEmpty else { return (Outcome(result: .failure(FallbackError(reason: .unsupportedLanguage)), attempts: []), nil) }
        for (index, link) in links.enumerated() {
            let isLast = index == links.count - 1
            let attemptDeadline = isLast ? deadline : ContinuousClock.now + (deadline - .now) / 3 * 2
            let outcome = await ask(link, request, deadline: attemptDeadline, attempt: attempts.count + 1, logger: logger)
            attempts += outcome.attempts
            switch outcome.result {
            case .success(let answer):
                let judgement = judge(answer.reply, by: validator)
                if judgement.isUsable { return (Outcome(result: .success(answer), attempts: attempts), judgement) }
                attempts[attempts.count - 1].outcome = "unusable"
                last = .success(answer)
                lastJudgement = judgement
            case .failure(let error) where error.reason == .unavailable:
                continue
            case .failure(let error):
                last = .failure(error)
                lastJudgement = nil
                if Task.isCancelled { return (Outcome(result: .failure(error), attempts: attempts), nil) }
            }
        }
        guard ContinuousClock.now < deadline else { return (Outcome(result: .failure(FallbackError(reason: .timeout)), attempts: attempts), nil) }
        let result = last ?? .failure(FallbackError(reason: attempts.isEmpty ? .timeout : .unavailable))
        return (Outcome(result: result, attempts: attempts), lastJudgement)
    }

    private func judge(_ reply: LLMReply, by validator: PromptValidator) -> Judgement {
        tracer.withSpan("gate") { span in
            let start = ContinuousClock.now
            let validation = validator.judge(reply: reply.completeText, logprobs: reply.logprobs)
            span.describeVerdicts(validation)
            return Judgement(validation: validation, duration: ContinuousClock.now - start)
        }
    }

    /// Asks one backend, if its breaker allows, with the time left; `attempt` numbers the request's calls for its span.
    package func ask(_ link: Link, _ request: LLMRequest, deadline: ContinuousClock.Instant, attempt: Int, logger: Logger) async -> Outcome {
        let identity = link.backend.identity
        let remaining = deadline - .now
        guard remaining > .milliseconds(5) else {
            return Outcome(result: .failure(FallbackError(reason: .timeout)), attempts: [])
        }
        guard await link.breaker.permitsCall() else {
            return Outcome(
                result: .failure(FallbackError(reason: .unavailable)),
                attempts: [Attempt(identity: identity, duration: .zero, outcome: Attempt.skipped)]
            )
        }
        return await tracer.withSpan("model call", ofKind: .client) { span in
            let outcome = await call(link, request, within: remaining, span: span, logger: logger)
            span.describeModelCall(identity, request: request, number: attempt, outcome: outcome.attempts.first)
            return outcome
        }
    }

    /// One call to `link`'s backend, recorded in its breaker, latency and token mean, told to the provider as `span`'s
    /// child through `traceparent`.
    private func call(_ link: Link, _ request: LLMRequest, within remaining: Duration, span: any Span, logger: Logger) async -> Outcome {
        let identity = link.backend.identity
        var request = request
        tracer.inject(span.context, into: &request.traceHeaders, using: TraceHeaders())
        let start = ContinuousClock.now
        request.observer?.callStarted(by: identity)
        do {
            let reply = try await call(link.backend, request, within: remaining)
            let duration = ContinuousClock.now - start
            await link.breaker.recordSuccess()
            link.latency.record(duration)
            if let usage = reply.usage { link.completions.record(usage.completion) }
            var metadata: Logger.Metadata = ["provider": "\(identity.provider)", "model": "\(identity.model)"]
            metadata["finish_reason"] = reply.finishReason.map { "\($0)" }
            metadata["prompt_tokens"] = reply.usage.map { "\($0.prompt)" }
            metadata["cached_prompt_tokens"] = reply.usage.map { "\($0.cached)" }
            metadata["completion_tokens"] = reply.usage.map { "\($0.completion)" }
            // A model cut off at its limit, or stopped by a filter, is worth an operator's look; a normal stop is not.
            let unusualStop = reply.finishReason.map { $0 != .stop } ?? false
            logger.log(level: unusualStop ? .notice : .debug, "backend answered", metadata: metadata)
            let attempt = Attempt(identity: identity, duration: duration, outcome: "ok", usage: reply.usage)
            return Outcome(result: .success((reply, link)), attempts: [attempt])
        } catch let error as BackendError {
            await link.breaker.recordFailure(retryAfter: error.retryAfter)
            logger.warning("backend failed", metadata: ["provider": "\(identity.provider)", "model": "\(identity.model)", "error": "\(error)"])
            let attempt = Attempt(identity: identity, duration: ContinuousClock.now - start, outcome: error.outcome)
            return Outcome(result: .failure(FallbackError(reason: error.isTimeout ? .timeout : .backendError)), attempts: [attempt])
        } catch {
            // Cancelled: no one waits for the reply any more, so this says nothing about the backend's health.
            await link.breaker.releaseProbe()
            let attempt = Attempt(
                identity: identity,
                duration: ContinuousClock.now - start,
                outcome: "cancelled",
                savedTokens: link.completions.mean ?? 0
            )
            return Outcome(result: .failure(FallbackError(reason: .backendError)), attempts: [attempt])
        }
    }

    /// Calls `backend` as a child of the request's task, enforcing `budget` itself in case the backend overruns its own
    /// timeout: the call is then cancelled (its libcurl transfer removed) and the chain moves on. A backend must end
    /// when cancelled; the controller's `answer(by:)` keeps the client's deadline even for one that does not.
    private func call(_ backend: any LLMBackend, _ request: LLMRequest, within budget: Duration) async throws -> LLMReply {
        do {
            return try await deadlines.withDeadline(.now + budget + .milliseconds(50)) { try await backend.complete(request, timeout: budget) }
        } catch is DeadlinePassed {
            throw BackendError.timedOut("no reply within \(budget)")
        }
    }
}
