import Foundation
import Logging
import PromptDomain
import PromptTemplates
import Tracing

/// What starting a session and refreshing it share: a deadline, a plan drawn once, a logger that names the
/// template, and the count of each round shown. The clock, the cache and the metrics are the generator's.
package protocol RoundMaking: Sendable {
    var generator: PromptGenerator { get }
    var stats: StatsRecorder { get }
}

extension RoundMaking {
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
