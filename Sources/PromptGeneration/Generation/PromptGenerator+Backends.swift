import Logging
import PromptBackends
import PromptDomain
import PromptTemplates
import Tracing

/// The backend path of one request, in named steps: ask, judge, re-ask once when it can help, answer.
extension PromptGenerator {
    /// What one request has so far: the prompts kept and rejected over its calls, and their tokens.
    private struct Judged {
        var kept: [ValidPrompt]
        var rejected: [PromptRejection]
        var usage: TokenUsage?
        var reasked = false
        var calls = 0
    }

    /// One request's call, as rendered: what is sent, how replies are judged, and the streamed prompts so far.
    private struct Call {
        var request: LLMRequest
        let validator: PromptValidator
        /// The template's checks, which a re-ask repeats.
        let checks: PromptChecks
        let early: EarlyPrompts?
        let shownKeys: Set<String>
        let seen: SeenPrompts
        let deadline: ContinuousClock.Instant
    }

    /// The backend path for `input`, whose session has shown the prompts with `shownKeys` (worked out once, by the caller).
    package func generateFromBackends(
        _ input: Input,
        shownKeys: Set<String>,
        cacheKey: String,
        found: SharedPrompts,
        logger: Logger
    ) async -> Generation {
        var timing = ServerTiming()
        guard admission.enter() else {
            timing.add("admission", .zero, detail: "\(admission.limit) backend calls in flight")
            logger.warning("backend capacity reached; answering with fallbacks", metadata: ["limit": "\(admission.limit)"])
            return .fallback(.unavailable, timing: timing)
        }
        defer { admission.leave() }
        var call = await prepare(input, shownKeys: shownKeys, found: found, timing: &timing)
        // Each reply is judged once, as it arrives: whether it is usable, and then what it gives.
        let (first, judgement) = await chain.complete(call.request, judgedBy: call.validator, deadline: call.deadline, logger: logger)
        record(first.attempts, pass: 1, in: &timing)
        guard case .success(let answer) = first.result, let judgement else {
            var generation = cutShort(first, early: call.early, timing: timing)
            generation.modelCalls = first.attempts.count(where: \.madeCall)
            return generation
        }
        timing.add("validate", judgement.duration)
        let validation = judgement.validation
        // Prompts already streamed come first, whichever call wrote them (a backend that failed after them, too), and
        // count towards the three before a re-ask is weighed.
        var judged = Judged(
            kept: call.early?.leading(validation.kept) ?? validation.kept,
            rejected: validation.rejected,
            usage: answer.reply.usage,
            calls: first.attempts.count(where: \.madeCall)
        )
        let needed = ProductSpec.promptsPerAnswer - call.seen.fresh(judged.kept).count { !call.seen.holdsFrame($0) }
        if needed > 0, validation.suggestsReaskHelps, hasTimeForAnotherCall(to: answer.link, before: call.deadline) {
            await reask(&call, after: answer, validation, needed: needed, into: &judged, timing: &timing, logger: logger)
        }
        return answered(judged, by: answer.link.backend.identity, call: call, cacheKey: cacheKey, timing: timing)
    }

    /// Builds the request and its judge from the plan; a streaming client is told the model is asked.
    private func prepare(_ input: Input, shownKeys: Set<String>, found: SharedPrompts, timing: inout ServerTiming) async -> Call {
        let plan = input.plan
        let validator = plan.validator
        var (request, renderDuration) = await measured { plan.modelRequest(round: input.round, avoiding: input.alreadyShown) }
        timing.add("render", renderDuration)
        let early = input.stream.map { stream in
            found.listen(stream.prompt)
            return EarlyPrompts(validator: validator, seen: input.seen, onPrompt: found.publish)
        }
        request.observer = early
        input.stream?.modelAsked()
        return Call(
            request: request,
            validator: validator,
            checks: plan.checks,
            early: early,
            shownKeys: shownKeys,
            seen: input.seen,
            deadline: input.backendDeadline(from: .now, timeout: timeout)
        )
    }

    /// The answer when no backend answered usably: a cut stream keeps the prompts it showed, fallbacks fill the rest.
    private func cutShort(_ outcome: BackendChain.Outcome, early: EarlyPrompts?, timing: ServerTiming) -> Generation {
        let reason = if case .failure(let error) = outcome.result { error.reason } else { FallbackReason.backendError }
        guard let shown = early?.shown, !shown.isEmpty else { return .fallback(reason, timing: timing) }
        var generation = Generation.prompts(shown, from: .model, timing: timing)
        generation.fallbackReason = reason
        generation.judged = true
        return generation
    }

    /// Asks the backend that answered once more, with its reply and what was wrong with it, for `needed` more.
    private func reask(
        _ call: inout Call,
        after answer: (reply: LLMReply, link: BackendChain.Link),
        _ validation: PromptValidation,
        needed: Int,
        into judged: inout Judged,
        timing: inout ServerTiming,
        logger: Logger
    ) async {
        call.request.messages.append(.init(role: "assistant", content: answer.reply.text))
        let feedback = ReaskFeedback.message(for: validation, needed: needed, rule: call.validator.wordRule, checks: call.checks)
        call.request.messages.append(.init(role: "user", content: feedback))
        let second = await chain.ask(answer.link, call.request, deadline: call.deadline, attempt: judged.calls + 1, logger: logger)
        record(second.attempts, pass: 2, in: &timing)
        judged.reasked = true
        judged.calls += second.attempts.count(where: \.madeCall)
        guard case .success(let reask) = second.result else { return }
        let alreadyKept = call.shownKeys.union(judged.kept.map(\.repeatKey))
        judged.usage = TokenUsage.sum(judged.usage, reask.reply.usage)
        let more = tracer.withSpan("gate") { span in
            let more = call.validator.judge(reply: reask.reply.completeText, logprobs: reask.reply.logprobs, alreadyShown: alreadyKept)
            span.describeVerdicts(more)
            return more
        }
        judged.kept += more.kept
        judged.rejected += more.rejected
    }

    /// The generation for what was kept, and the cache entry when it is a full answer.
    private func answered(_ judged: Judged, by identity: BackendIdentity, call: Call, cacheKey: String, timing: ServerTiming) -> Generation {
        // And the re-ask's streamed prompts too: the answer shows each where it was shown.
        var kept = call.early?.leading(judged.kept) ?? judged.kept
        for index in kept.indices { kept[index].answeredBy = identity }
        // What the cache keeps is every user's: near-duplicates and cards of one frame go, whoever has seen what.
        let written = kept.count
        kept = call.seen.nothingSeen.fresh(kept)
        let unseen = call.seen.unseen(kept)
        // Nothing kept is the model's fault; kept prompts the user had all met are not.
        let reason: FallbackReason = kept.isEmpty ? .invalidOutput : .allSeen
        var generation = unseen.isEmpty ? Generation.fallback(reason, timing: timing) : .prompts(unseen, from: .model, timing: timing)
        generation.nearDuplicates = written - kept.count
        generation.rejected = judged.rejected
        generation.reasked = judged.reasked
        generation.modelCalls = judged.calls
        generation.judged = true
        generation.usage = judged.usage
        // Only a full answer is cached: a short one would pin fallback-filled rounds for a week. The caller writes it
        // together with the session, so the model path pays for one commit, not two.
        if kept.count >= ProductSpec.promptsPerAnswer {
            generation.cacheEntry = CacheEntry(key: cacheKey, prompts: kept, expiresAt: clock.now.addingTimeInterval(cacheTTL))
        }
        return generation
    }
}
