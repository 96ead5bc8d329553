import Foundation
import PromptDomain

/// How a template version's answers fared: the one definition of each measure, shared by `/admin/stats`,
/// `/admin/quality` and `/admin/variants`, so a chart and the API never disagree. Shares over nothing are `null`.
struct QualityMeasures: Encodable, Sendable {
    /// Answers shown: first rounds plus refreshes.
    var requests: Int
    var sessions: Int
    var refreshes: Int
    var sessionsWithSelection: Int
    @ExplicitNull var selectionRate: Double?
    /// Feedback received, by action.
    var feedback: [String: Int]
    /// Answers by source: model, cache, fallback.
    var sources: [String: Int]
    var cardsShown: Int
    /// Share of cards shown that the model wrote (now or from the cache), not the fallback copy.
    @ExplicitNull var modelCardShare: Double?
    /// Share of cards shown that name a detail of the photo: its place, a label or its people.
    @ExplicitNull var detailShare: Double?
    /// Share of answers with at least one fallback prompt.
    @ExplicitNull var fallbackRate: Double?
    /// Cards shown by angle (``Angles``); a card of no listed angle is not counted.
    var angles: [String: Int]
    /// Different angles per answer shown, three at best.
    @ExplicitNull var anglesPerAnswer: Double?
    /// Whole-answer fallbacks by reason.
    var fallbacksByReason: [String: Int]
    /// Share of backend answers that needed a re-ask.
    @ExplicitNull var reaskRate: Double?
    /// Share of the model's candidates that passed the gate.
    @ExplicitNull var passRate: Double?
    var rejections: [String: Int]
    /// Good candidates dropped as near-duplicates of another in the same answer.
    var nearDuplicates: Int
    /// Near-duplicates per backend answer judged.
    @ExplicitNull var nearDuplicatesPerAnswer: Double?
    /// The wait for a session's first answer, 50th and 95th percentile, in milliseconds (from hourly histograms).
    @ExplicitNull var firstAnswerP50Ms: Double?
    @ExplicitNull var firstAnswerP95Ms: Double?
    /// Backend calls (first asks, failovers and re-asks, whatever their outcome) per session started.
    @ExplicitNull var modelCallsPerSession: Double?
    /// Tokens the providers reported: `prompt`, `completion`.
    var tokens: [String: Int]
    /// Prompt and completion tokens per session started: what an operator pays for one photo, refreshes included.
    @ExplicitNull var tokensPerSession: Double?

    /// The measures of `counters`, summed by name (``sums(of:)``).
    init(counters: [String: Int]) {
        func count(_ name: String) -> Int { counters[name] ?? 0 }
        func prefixed(_ prefix: String) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: counters.filter { $0.key.hasPrefix(prefix) }.map { (String($0.key.dropFirst(prefix.count)), $0.value) })
        }
        requests = count("requests")
        sessions = count("sessions")
        refreshes = count("refreshes")
        sessionsWithSelection = count("sessions_selected")
        selectionRate = Self.ratio(sessionsWithSelection, sessions)
        feedback = prefixed("feedback.")
        sources = prefixed("source.")
        cardsShown = count("prompts_shown")
        modelCardShare = Self.ratio(cardsShown - count("cards.fallback"), cardsShown)
        detailShare = Self.ratio(count("prompts_naming_detail"), cardsShown)
        angles = prefixed("angle.")
        anglesPerAnswer = Self.ratio(count("angles_distinct"), requests)
        fallbackRate = Self.ratio(count("rounds_with_fallback_prompts"), requests)
        fallbacksByReason = prefixed("fallback.")
        reaskRate = Self.ratio(count("reasks"), count("judged_requests"))
        passRate = Self.ratio(count("candidates.kept"), count("candidates.kept") + count("candidates.rejected"))
        rejections = prefixed("rejected.")
        nearDuplicates = count("near_duplicates")
        nearDuplicatesPerAnswer = Self.ratio(nearDuplicates, count("judged_requests"))
        firstAnswerP50Ms = LatencyHistogram.quantile(0.5, of: counters)
        firstAnswerP95Ms = LatencyHistogram.quantile(0.95, of: counters)
        modelCallsPerSession = Self.ratio(count("model_calls"), sessions)
        tokens = prefixed("tokens.")
        tokensPerSession = Self.ratio(count("tokens.prompt") + count("tokens.completion"), sessions)
    }

    init(summing counters: some Sequence<StatsCounter>) {
        self.init(counters: Self.sums(of: counters))
    }

    /// `counters` summed by name: what the measures are made of, and ``VariantComparison``'s intervals too.
    static func sums(of counters: some Sequence<StatsCounter>) -> [String: Int] {
        var sums: [String: Int] = [:]
        for counter in counters { sums[counter.name, default: 0] += counter.value }
        return sums
    }

    static func ratio(_ part: Int, _ whole: Int) -> Double? { whole > 0 ? Double(part) / Double(whole) : nil }
}
