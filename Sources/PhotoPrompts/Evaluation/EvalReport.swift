import Foundation
import PromptBackends
import PromptDomain
import PromptGeneration
import PromptTemplates

/// How one template did over a fixture set: the numbers `photo-prompts eval` prints and writes.
public struct EvalReport: Codable, Sendable {
    public struct FixtureResult: Codable, Sendable {
        public var name: String
        /// The fixture's language, as the pass rate by language names it (`ja`, `zh-Hant`).
        public var language: String?
        /// How many of the first answer's three cards the model wrote (the rest are fallbacks).
        public var cardsFromModel: Int?
        /// How many of those cards name the photo's place, a label or its people.
        public var cardsMentioning: Int?
        public var source: String
        public var fallbackReason: String?
        public var reasked: Bool
        public var latencyMs: Double
        public var kept: [String]
        public var rejected: [Rejection]
        /// Kept prompts that mention the photo's place, a label or its people.
        public var mentioning: Int
        /// Prompt and completion tokens the provider reported for this photo's calls; `nil` when it reported none.
        public var tokens: Int?

        public struct Rejection: Codable, Sendable {
            public var candidate: String
            public var reason: String
            /// The reason's stable name, as `/metrics` counts it (`wrong_language`).
            public var code: String?
        }
    }

    public var template: TemplateIdentity
    public var fixtures: Int
    /// Raw candidates the model wrote, over first answers and re-asks.
    public var candidates: Int
    /// Share of raw candidates that passed the word rule and the template's checks.
    public var passRate: Double
    /// The same share per language of the fixtures' locales (`ja`, `zh-Hant`), each under its own word rule.
    public var passRateByLanguage: [String: Double]
    /// Share of requests that needed a re-ask.
    public var reaskRate: Double
    /// Share of requests whose three prompts needed at least one fallback.
    public var fallbackRate: Double
    /// Candidates rejected as duplicates within one answer.
    public var duplicatesInAnswers: Int
    /// Kept prompts (by repeat key) that were written for two photos or more: generic prompts.
    public var repeatedAcrossPhotos: Int
    /// Share of answers with two near-duplicates (one dropped), per language; `nil` in reports made before counting.
    public var nearDuplicateAnswersByLanguage: [String: Double]?
    /// Kept prompts near-duplicating one for an earlier photo in its language: what a user without history meets again.
    public var nearRepeatsAcrossPhotos: Int?
    /// Share of kept prompts, over photos with a place, labels or people, that mention one of them.
    public var metadataMentionRate: Double?
    public var latencyP50Ms: Double
    public var latencyP95Ms: Double
    public var rejections: [String: Int]
    public var results: [FixtureResult]
    /// Prompt tokens over all fixtures, as the providers reported them; `nil` in reports made before tokens were read.
    public var promptTokens: Int?
    /// Completion tokens over all fixtures.
    public var completionTokens: Int?

    /// Prompt and completion tokens per photo: what one photo's first prompts cost.
    public var tokensPerPhoto: Double? {
        guard let promptTokens, let completionTokens, fixtures > 0 else { return nil }
        return Double(promptTokens + completionTokens) / Double(fixtures)
    }

    /// One fixture's line of the report: its first answer's cards, what was kept and rejected, and why.
    private static func result(
        of outcome: (fixture: EvalFixture, generation: Generation, latency: Duration),
        language: String,
        details: PhotoMentions,
        mentioning: Int
    ) -> FixtureResult {
        let generation = outcome.generation
        return FixtureResult(
            name: outcome.fixture.name,
            language: language,
            cardsFromModel: min(generation.candidates.count, ProductSpec.promptsPerAnswer),
            cardsMentioning: generation.candidates.prefix(ProductSpec.promptsPerAnswer).filter { details.mentioned(inKey: $0.repeatKey) }.count,
            source: generation.source.rawValue,
            fallbackReason: generation.fallbackReason?.rawValue,
            reasked: generation.reasked,
            latencyMs: outcome.latency.milliseconds,
            kept: generation.candidates.map(\.text),
            rejected: generation.rejected.map { .init(candidate: $0.candidate, reason: $0.reason.description, code: $0.reason.code) },
            mentioning: mentioning,
            tokens: generation.usage?.total
        )
    }

    /// Summarises `outcomes`, one per fixture, in fixture order.
    package init(template: TemplateIdentity, outcomes: [(fixture: EvalFixture, generation: Generation, latency: Duration)]) {
        self.template = template
        fixtures = outcomes.count
        var kept = 0
        var rejected = 0
        var reasks = 0
        var needingFallback = 0
        var rejections: [String: Int] = [:]
        var photosByKey: [String: Set<Int>] = [:]
        var mentionable = 0
        var mentioning = 0
        var results: [FixtureResult] = []
        var usage: TokenUsage?
        var judgedByLanguage: [String: (kept: Int, judged: Int)] = [:]
        var nearDuplicateAnswers: [String: (with: Int, answers: Int)] = [:]
        var earlierByLanguage: [String: SeenPrompts] = [:]
        var nearRepeats = 0
        for (index, outcome) in outcomes.enumerated() {
            let generation = outcome.generation
            let photo = outcome.fixture.request.photo
            kept += generation.candidates.count
            rejected += generation.rejected.count
            let language = CopyMatching.languageAndScript(of: outcome.fixture.request.locale)
            judgedByLanguage[language, default: (0, 0)].kept += generation.candidates.count
            judgedByLanguage[language, default: (0, 0)].judged += generation.candidates.count + generation.rejected.count
            if generation.reasked { reasks += 1 }
            nearDuplicateAnswers[language, default: (0, 0)].answers += 1
            if generation.nearDuplicates > 0 { nearDuplicateAnswers[language, default: (0, 0)].with += 1 }
            var earlier = earlierByLanguage[language] ?? SeenPrompts(language: outcome.fixture.request.locale)
            nearRepeats += generation.candidates.count { earlier.contains($0) }
            earlier.insert(generation.candidates)
            earlierByLanguage[language] = earlier
            usage = TokenUsage.sum(usage, generation.usage)
            if generation.candidates.count < ProductSpec.promptsPerAnswer { needingFallback += 1 }
            for rejection in generation.rejected { rejections[rejection.reason.code, default: 0] += 1 }
            for prompt in generation.candidates { photosByKey[prompt.repeatKey, default: []].insert(index) }
            let details = PhotoMentions(photo, language: outcome.fixture.request.locale)
            let mentions = generation.candidates.filter { details.mentioned(inKey: $0.repeatKey) }.count
            if details.hasDetails {
                mentionable += generation.candidates.count
                mentioning += mentions
            }
            results.append(Self.result(of: outcome, language: language, details: details, mentioning: mentions))
        }
        let requests = max(outcomes.count, 1)
        candidates = kept + rejected
        passRate = candidates > 0 ? Double(kept) / Double(candidates) : 0
        passRateByLanguage = judgedByLanguage.mapValues { $0.judged > 0 ? Double($0.kept) / Double($0.judged) : 0 }
        reaskRate = Double(reasks) / Double(requests)
        fallbackRate = Double(needingFallback) / Double(requests)
        duplicatesInAnswers = rejections["duplicate", default: 0]
        repeatedAcrossPhotos = photosByKey.values.filter { $0.count > 1 }.count
        nearDuplicateAnswersByLanguage = nearDuplicateAnswers.mapValues { Double($0.with) / Double(max($0.answers, 1)) }
        nearRepeatsAcrossPhotos = nearRepeats
        metadataMentionRate = mentionable > 0 ? Double(mentioning) / Double(mentionable) : nil
        let latencies = outcomes.map(\.latency.milliseconds).sorted()
        latencyP50Ms = Self.percentile(0.50, of: latencies)
        latencyP95Ms = Self.percentile(0.95, of: latencies)
        self.rejections = rejections
        self.results = results
        promptTokens = usage?.prompt
        completionTokens = usage?.completion
    }

    /// Nearest-rank percentile of sorted values.
    static func percentile(_ p: Double, of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
