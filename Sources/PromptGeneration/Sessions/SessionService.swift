import Foundation
import Logging
import PromptDomain
import PromptStores
import PromptTemplates
import Tracing

/// A session's life: its first answer, its refreshes (in turns), and what the app reads and records of it after.
/// One set of dependencies, one extension per use. The clock, the cache and the metrics are the generator's.
public struct SessionService: Sendable {
    package let generator: PromptGenerator
    package let store: any SessionStore
    package let templates: TemplateLibrary
    package let stats: StatsRecorder
    /// Each user's history: what they were shown in the last `historyWindow` is not shown to them again.
    package let history: UserHistory
    /// How long a session answers (`SESSIONS_TTL`).
    package let sessionTTL: TimeInterval
    /// Refreshes allowed per session (`SESSIONS_REFRESH_LIMIT`).
    public let refreshLimit: Int
    /// Wakes the refreshes waiting here for a session's turn when it ends here.
    let turnEnds = Wakeups()

    public init(
        generator: PromptGenerator,
        store: any SessionStore,
        templates: TemplateLibrary,
        stats: StatsRecorder,
        history: UserHistory = .off,
        sessionTTL: TimeInterval,
        refreshLimit: Int
    ) {
        self.generator = generator
        self.store = store
        self.templates = templates
        self.stats = stats
        self.history = history
        self.sessionTTL = sessionTTL
        self.refreshLimit = refreshLimit
    }

    /// The deadline of a prompt request that arrives at `start`: the model's whole budget, `LLM_TIMEOUT`. Every wait
    /// the request makes (a claim, a turn, the model) ends by then; only the store's last write comes after it.
    public func deadline(from start: ContinuousClock.Instant = .now) -> ContinuousClock.Instant {
        start + generator.timeout
    }

    /// Counts a round shown: per template version for operators, and in the service's metrics.
    func record(_ round: SessionRound, generation: Generation, shown: RoundContext, firstAnswer: Duration?) {
        stats.recordRound(round, generation: generation, shown: shown, firstAnswer: firstAnswer)
        if let reason = round.fallbackReason { generator.metrics.fallback(reason) }
        if generation.judged { generator.metrics.rejections(generation.rejected) }
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
}
