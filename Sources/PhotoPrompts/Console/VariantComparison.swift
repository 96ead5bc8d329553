import Foundation
import Hummingbird
import PromptDomain

/// The answer to `GET /admin/variants`: an A/B pair side by side, each measure with a 95 % interval, and in plain
/// words what the data can tell yet, overall and per language. A winner on the selection rate is named only when
/// both arms have ``minimumSessions`` and the two intervals do not overlap.
struct VariantComparison: ResponseEncodable, Sendable {
    /// A measure's value, its interval where one can be given from hourly sums, and what it was counted over.
    struct Estimate: Encodable, Sendable {
        var value: Double?
        var low: Double?
        var high: Double?
        /// The trials (shares) or sessions/answers (rates) it was counted over.
        var n: Int
        /// `wilson` for shares, `poisson` for counts per session or answer, `none` where hourly sums cannot give one.
        var interval: String
    }

    /// One arm: a variant, its versions summed.
    struct Arm: Encodable, Sendable {
        var variant: String
        var sessions: Int
        var measures: [String: Estimate]
    }

    /// What one language's data (or all languages') says.
    struct Verdict: Encodable, Sendable {
        /// The language's tag, or `null` for all languages.
        @ExplicitNull var language: String?
        var arms: [Arm]
        /// The variant that is ahead on the selection rate, only once the data can tell; `null` ("no winner yet" is an answer).
        @ExplicitNull var winner: String?
        var sentence: String
    }

    /// The z of 80 % power, beside the 95 % of ``WilsonInterval/z``, for the smallest difference the sessions can tell.
    static let zForPower = 0.841621

    /// Sessions each arm needs before a winner can be named.
    static let minimumSessions = 100

    var template: String
    var from: String
    var to: String
    /// The decision measure.
    var measure = "selection_rate"
    var overall: Verdict
    /// One verdict per language with sessions, most sessions first (only the asked one with `language=`).
    var languages: [Verdict]

    /// - Parameter counters: the range's counts, one bucket, per language (or in the asked language only).
    init(range: ConsoleRange, from: String, variants: [String], counters: [StatsCounter]) {
        template = range.template
        self.from = from
        to = range.toText
        overall = Self.verdict(language: range.language?.description, variants: variants, counters: counters)
        languages = Dictionary(grouping: counters, by: \.language)
            .filter { !$0.key.isEmpty }
            .map { Self.verdict(language: $0.key, variants: variants, counters: $0.value) }
            .sorted { ($0.arms.map(\.sessions).reduce(0, +), $0.language ?? "") > ($1.arms.map(\.sessions).reduce(0, +), $1.language ?? "") }
    }

    private static func verdict(language: String?, variants: [String], counters: [StatsCounter]) -> Verdict {
        let byVariant = Dictionary(grouping: counters, by: \.template.variant)
        let names = variants + byVariant.keys.filter { !variants.contains($0) }.sorted()
        let arms = names.map { arm(variant: $0, counters: QualityMeasures.sums(of: byVariant[$0] ?? [])) }
        let label = language.map { LanguageNames.englishName(of: LanguageTag(locale: $0)) } ?? "All languages"
        let (winner, sentence) = judge(arms, label: label)
        return Verdict(language: language, arms: arms, winner: winner, sentence: sentence)
    }

    private static func arm(variant: String, counters: [String: Int]) -> Arm {
        let measures = QualityMeasures(counters: counters)
        func count(_ name: String) -> Int { counters[name] ?? 0 }
        func share(_ successes: Int, _ trials: Int) -> Estimate {
            let interval = WilsonInterval(successes: successes, trials: trials)
            return Estimate(value: QualityMeasures.ratio(successes, trials), low: interval?.low, high: interval?.high, n: trials, interval: "wilson")
        }
        func rate(_ events: Int, per units: Int) -> Estimate {
            guard units > 0 else { return Estimate(n: 0, interval: "poisson") }
            let half = WilsonInterval.z * Double(events).squareRoot() / Double(units)
            let value = Double(events) / Double(units)
            return Estimate(value: value, low: max(0, value - half), high: value + half, n: units, interval: "poisson")
        }
        let cards = count("prompts_shown")
        let candidates = count("candidates.kept") + count("candidates.rejected")
        return Arm(
            variant: variant,
            sessions: measures.sessions,
            measures: [
                "selection_rate": share(count("sessions_selected"), measures.sessions),
                "model_card_share": share(cards - count("cards.fallback"), cards),
                "detail_share": share(count("prompts_naming_detail"), cards),
                "angles_per_answer": rate(count("angles_distinct"), per: measures.requests),
                "fallback_rate": share(count("rounds_with_fallback_prompts"), measures.requests),
                "pass_rate": share(count("candidates.kept"), candidates),
                "reask_rate": share(count("reasks"), count("judged_requests")),
                "model_calls_per_session": rate(count("model_calls"), per: measures.sessions),
                "near_duplicates_per_answer": rate(count("near_duplicates"), per: count("judged_requests")),
                "tokens_per_session": Estimate(value: measures.tokensPerSession, n: measures.sessions, interval: "none"),
                "first_answer_p50_ms": Estimate(value: measures.firstAnswerP50Ms, n: measures.sessions, interval: "none"),
                "first_answer_p95_ms": Estimate(value: measures.firstAnswerP95Ms, n: measures.sessions, interval: "none"),
            ]
        )
    }

    /// The winner, if the data can name one, and the sentence an operator reads.
    private static func judge(_ arms: [Arm], label: String) -> (String?, String) {
        let withSessions = arms.filter { $0.sessions > 0 }
        guard arms.count >= 2 else { return (nil, "\(label): only one variant is configured; there is nothing to compare.") }
        guard withSessions.count >= 2 else {
            return (nil, "\(label): only \(withSessions.first?.variant ?? "no variant") has sessions in this range; nothing to compare yet.")
        }
        let (a, b) = (withSessions[0], withSessions[1])
        let sessions = "\(a.sessions) sessions in \(a.variant) and \(b.sessions) in \(b.variant)"
        guard let rateA = a.measures["selection_rate"], let rateB = b.measures["selection_rate"], let valueA = rateA.value,
            let valueB = rateB.value, let lowA = rateA.low, let highA = rateA.high, let lowB = rateB.low, let highB = rateB.high
        else { return (nil, "\(label): \(sessions); no selection rate yet.") }
        let percent = { (value: Double) in "\(Int((value * 100).rounded())) %" }
        let rates = "selection rate \(percent(valueA)) against \(percent(valueB))"
        let separated = !WilsonInterval(low: lowA, high: highA).overlaps(WilsonInterval(low: lowB, high: highB))
        let fewest = min(a.sessions, b.sessions)
        if separated && fewest >= minimumSessions {
            let (ahead, behind) = valueA > valueB ? (a, b) : (b, a)
            return (
                ahead.variant, "\(label): \(ahead.variant) is ahead of \(behind.variant) (\(rates), \(sessions)); the 95 % intervals do not overlap."
            )
        }
        // The smallest difference these sessions could tell apart, at 95 % confidence and 80 % power.
        let pooled = (valueA * Double(a.sessions) + valueB * Double(b.sessions)) / Double(a.sessions + b.sessions)
        let spread = max(pooled * (1 - pooled), 0.05)
        let z = WilsonInterval.z + zForPower
        let detectable = z * (spread * (1 / Double(a.sessions) + 1 / Double(b.sessions))).squareRoot()
        let needed = Int((z * z * 2 * spread / (0.05 * 0.05)).rounded(.up))
        let reason = fewest < minimumSessions ? "fewer than \(minimumSessions) sessions in an arm" : "the 95 % intervals overlap"
        return (
            nil,
            "\(label): \(sessions), \(rates): too few to tell a difference smaller than \(Int((detectable * 100).rounded())) points (\(reason)); "
                + "about \(needed) sessions per arm would tell a 5-point one."
        )
    }
}
