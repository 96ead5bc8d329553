import Foundation
import PromptDomain
import PromptTemplates

/// Turns a ``Generation`` into the three prompts a user sees, filling gaps from the fallbacks.
public struct RoundAssembler: Sendable {
    /// The fallback copy, worked out only for a round that needs it: the lines that name the photo are rendered and
    /// judged per request, which a cache hit should not pay for.
    public var fallbacks: @Sendable () -> FallbackPrompts
    /// How the fallbacks' words are counted, for their `word_count`: the rule of the language they are written in.
    public var wordRule: WordRule
    /// When the round is chosen: its date until the store keeps it.
    public var now: Date

    public init(fallbacks: @escaping @Sendable () -> FallbackPrompts, wordRule: WordRule = .english, now: Date) {
        self.fallbacks = fallbacks
        self.wordRule = wordRule
        self.now = now
    }

    /// The assembler of a request: its plan's fallbacks, counted by the rule of the copy's language.
    public init(for plan: RequestPlan) {
        self.init(fallbacks: plan.fallbacks, wordRule: .for(plan.copy.locale), now: plan.now)
    }

    public init(fallbacks: FallbackPrompts, wordRule: WordRule = .english, now: Date) {
        self.init(fallbacks: { fallbacks }, wordRule: wordRule, now: now)
    }

    /// Three prompts for `generation`, none a repeat, exact or near, of what the user has `seen` or of another in the
    /// round, unless the fallback copy must be reused, in the order ``SeenPrompts/ranked(_:)`` gives (different angles,
    /// the specific first) or, for a `streamed` round, the stream's. A round with no unseen model prompt is a fallback.
    /// The candidates are unseen by `seen` already (the generator and the surplus filtered them; comparing each with a
    /// full history twice cost a returning user a quarter of the CPU); only `alsoShown`, the repeat keys a concurrent
    /// refresh committed since, is left out here.
    public func draft(from generation: Generation, seen: SeenPrompts, alsoShown: Set<String> = [], streamed: Bool = false) -> SessionRound {
        let count = ProductSpec.promptsPerAnswer
        var seen = seen
        for key in alsoShown { seen.insert(repeatKey: key) }
        let unseen = alsoShown.isEmpty ? generation.candidates : generation.candidates.filter { !alsoShown.contains($0.repeatKey) }
        guard generation.source != .fallback, !unseen.isEmpty else {
            // Candidates, but every one met already (taken by a concurrent refresh).
            let reason = generation.fallbackReason ?? .allSeen
            return SessionRound(source: .fallback, fallbackReason: reason, prompts: fallbackPrompts(count, avoiding: seen), createdAt: now)
        }
        let ranked = streamed ? unseen : seen.ranked(unseen)
        let chosen = ranked.prefix(count).map { valid in
            var prompt = Prompt(
                id: RandomIdentifier.makeTimeOrdered(prefix: "p_"),
                text: valid.text,
                wordCount: valid.wordCount,
                source: generation.source,
                repeatKey: valid.repeatKey,
                signature: valid.signature
            )
            prompt.angle = valid.signature.flatMap(seen.angleName(of:))
            prompt.photoTerms = valid.signature.map(seen.photoTermMask(of:))
            return prompt
        }
        let gap = count - chosen.count
        var seenWithChosen = seen
        if gap > 0 { seenWithChosen.insert(chosen) }
        return SessionRound(
            source: generation.source,
            // Set only for a streamed reply cut after some prompts were shown: why the fallbacks fill the rest.
            fallbackReason: gap > 0 ? generation.fallbackReason : nil,
            prompts: chosen + fallbackPrompts(gap, avoiding: seenWithChosen),
            surplus: Array(ranked.dropFirst(count)),
            createdAt: now,
            answeredBy: ranked.first?.answeredBy
        )
    }

    private func fallbackPrompts(_ count: Int, avoiding seen: SeenPrompts) -> [Prompt] {
        guard count > 0 else { return [] }
        return fallbacks().pick(count, avoiding: seen).map { line in
            var prompt = Prompt(
                id: RandomIdentifier.makeTimeOrdered(prefix: "p_"),
                text: line.text,
                wordCount: wordRule.count(line.text),
                source: .fallback,
                repeatKey: line.repeatKey
            )
            let signature = PromptSignature(line.text, language: seen.language)
            (prompt.signature, prompt.angle, prompt.photoTerms) = (signature, seen.angleName(of: signature), seen.photoTermMask(of: signature))
            return prompt
        }
    }
}
