import Foundation

/// Applies the word rule, the template's checks, the gate and the no-repeat rule to a model's candidates: a kept one
/// is a single normalised line, new to the reply and the session.
public struct PromptValidator: Sendable {
    public var wordRule: WordRule
    public var checks: PromptChecks
    /// The gate a model's candidate passes before it can be shown; nil for the operators' own fallback lines.
    public var gate: PromptGate?
    /// Repeat keys of the example questions the model was shown: one copied back is every photo's, not this one's.
    public var exampleKeys: Set<String> = []
    /// The details of the photo asked about: kept prompts that name one come first, so they are the ones shown and
    /// the rest wait for a refresh. Nil keeps the model's order.
    public var photoMentions: PhotoMentions?
    /// The words a line may open with (`prompts/openers/`): a grammar forces them, so the fluency rule skips them.
    public var openers: [String] = []

    public init(wordRule: WordRule = .english, checks: PromptChecks = PromptChecks(), gate: PromptGate? = nil) {
        self.wordRule = wordRule
        self.checks = checks
        self.gate = gate
    }

    /// Judges a model's whole reply: the candidates ``ReplyExtractor`` finds in it, each validated, with the model's
    /// `logprobs` of its tokens where the provider gave them.
    public func judge(reply text: String, logprobs: TokenLogprobs? = nil, alreadyShown: Set<String> = []) -> PromptValidation {
        validate(ReplyExtractor.candidates(in: text), alreadyShown: alreadyShown, in: logprobs.map { (text, $0) })
    }

    /// Judges `candidates`, rejecting those whose repeat key is in `alreadyShown`; those found in `reply`'s text are
    /// also held to the fluency rule by its tokens.
    public func validate(
        _ candidates: [String],
        alreadyShown: Set<String> = [],
        in reply: (text: String, logprobs: TokenLogprobs)? = nil
    ) -> PromptValidation {
        var validation = PromptValidation()
        var seen = alreadyShown
        var searched = reply?.text.startIndex
        for raw in candidates {
            var lowest: Double?
            if let reply, let from = searched, let found = reply.text.range(of: raw, range: from..<reply.text.endIndex) {
                searched = found.upperBound
                let utf8 = reply.text.utf8
                let start = utf8.distance(from: utf8.startIndex, to: found.lowerBound)
                let judged = start + opening(of: reply.text[found])
                let end = max(judged, start + utf8.distance(from: found.lowerBound, to: found.upperBound))
                lowest = reply.logprobs.lowest(startingIn: judged..<end, skipping: photoWords(in: reply.text, found))
            }
            switch verdict(on: raw, lowest: lowest, alreadyShown: alreadyShown, seen: seen) {
            case .kept(let prompt, let key):
                seen.insert(key)
                validation.kept.append(prompt)
            case .rejected(let reason):
                validation.rejected.append(.init(candidate: raw, reason: reason))
            }
        }
        if let photoMentions {
            // A stable partition, each prompt judged once: the model's order holds within each part.
            var naming: [ValidPrompt] = []
            var others: [ValidPrompt] = []
            for prompt in validation.kept {
                if photoMentions.mentioned(inKey: prompt.repeatKey) { naming.append(prompt) } else { others.append(prompt) }
            }
            validation.kept = naming + others
        }
        return validation
    }

    /// Whether a prompt kept earlier (a session's surplus) still passes the gate: an older one may have judged it.
    public func stillPasses(_ prompt: ValidPrompt) -> Bool {
        gate?.failure(for: prompt.text) == nil
    }

    private enum Verdict {
        case kept(ValidPrompt, key: String)
        case rejected(PromptRejection.Reason)
    }

    /// The UTF-8 length of what a grammar may have forced at the start of `line`: its listed opener, else its first
    /// word where words are spaced (a cased script's capital is forced), else its first letter.
    private func opening(of line: Substring) -> Int {
        if let opener = openers.filter({ line.hasPrefix($0 + " ") }).max(by: { $0.utf8.count < $1.utf8.count }) {
            return opener.utf8.count
        }
        let end = (gate?.spacesWords ?? true ? line.firstIndex(of: " ") : nil) ?? line.indices.dropFirst().first ?? line.endIndex
        return line.utf8.distance(from: line.startIndex, to: end)
    }

    /// Where the photo's own words (not its small ones: "the" of a caption) are in `text[line]`, each with the space
    /// before it, as UTF-8 offsets: a rare name the model copied from the photo ("Marrakesh", "canoe") is improbable
    /// to it, and the card naming it is not broken. Whole words where words are spaced.
    private func photoWords(in text: String, _ line: Range<String.Index>) -> [Range<Int>] {
        guard let gate else { return [] }
        let offset = { (index: String.Index) in text.utf8.distance(from: text.startIndex, to: index) }
        return gate.photoWords.filter { !SmallWords.contains($0, language: gate.language.language) }.flatMap { word in
            var ranges: [Range<Int>] = []
            var from = line.lowerBound
            while let found = text.range(of: word, options: .caseInsensitive, range: from..<line.upperBound) {
                from = found.upperBound
                let before = found.lowerBound > line.lowerBound ? text[text.index(before: found.lowerBound)] : " "
                let after = found.upperBound < line.upperBound ? text[found.upperBound] : " "
                guard !gate.spacesWords || !(before.isLetter || after.isLetter) else { continue }
                ranges.append(offset(found.lowerBound) - (found.lowerBound > line.lowerBound ? 1 : 0)..<offset(found.upperBound))
            }
            return ranges
        }
    }

    private func verdict(on raw: String, lowest: Double?, alreadyShown: Set<String>, seen: Set<String>) -> Verdict {
        if raw.contains(where: \.isNewline) { return .rejected(.multiLine) }
        let line = LineAnalysis(PromptNormalizer.normalize(raw), locale: gate?.language.description ?? wordRule.segmenterLocale)
        let words = wordRule.count(line)
        if let reason = judge(line, words: words, alreadyShown: alreadyShown, seen: seen) { return .rejected(reason) }
        // After the line's own rules, which tell a model more: the model's own doubt about a word it wrote.
        if let floor = gate?.rules.fluencyFloor, let lowest, lowest < floor { return .rejected(.disfluent) }
        return .kept(ValidPrompt(text: line.text, wordCount: words, repeatKey: line.key), key: line.key)
    }

    /// The first rule a normalised candidate breaks, in the order the model is best told about them.
    private func judge(_ line: LineAnalysis, words: Int, alreadyShown: Set<String>, seen: Set<String>) -> PromptRejection.Reason? {
        let key = line.key
        if words == 0 { return .empty }
        // The gate first: "written in en" tells a model more than "too long", and is what a user would have seen.
        if let failure = gate?.failure(for: line) { return failure }
        if words < wordRule.range.lowerBound { return .tooShort(words: words) }
        if words > wordRule.range.upperBound { return .tooLong(words: words) }
        if let failure = checks.failure(for: line) { return failure }
        if exampleKeys.contains(key) { return .copiedExample }
        if alreadyShown.contains(key) { return .alreadyShown }
        if seen.contains(key) { return .duplicate }
        return nil
    }
}
