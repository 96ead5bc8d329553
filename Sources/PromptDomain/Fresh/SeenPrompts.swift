import Foundation

/// Everything a user has been shown that a new prompt must not repeat: a session's rounds and, when the service
/// keeps one, the user's history. A prompt is seen when its repeat key matches one shown, or when it is a
/// near-duplicate of one (``PromptSignature``), or when it has the frame of one shown in this session.
///
/// A card's frame is its signature without the photo's own words (``framing(_:angles:)``): "How did you feel about
/// the harbor and the boats?" and "How did you feel about the coffee and the book?" share {how, feel}. Two cards of
/// one frame about two things in one photo read as one question twice, so an answer or a session never holds both.
/// Across a month, a frame the user met is held until they have met every other angle (``Angles``) since: a user
/// who opens the app every day meets a different kind of question each day. A held card is not seen but shown last
/// (``holdsFrame(_:)``).
///
/// It is consulted on every answer, cache hits included, so it does no work it can skip: with nothing seen, nothing
/// is computed; a history is used as the store read it, its keys scanned rather than hashed into a table that a
/// handful of lookups would not repay; a prompt that carries its signature (one the model wrote for this service)
/// is not signed again.
public struct SeenPrompts: Sendable {
    /// The language the prompts are in: their signatures are worked out by its rules.
    public let language: LanguageTag
    /// Repeat keys shown in this session, as they are.
    private var keys: Set<String> = []
    /// The history's repeat keys as the store keeps them (``SeenPrompt/key(_:)``), and when each was shown.
    private var historyKeys: [UInt64] = []
    private var historyShownAt: [Date] = []
    /// The seen signatures: their terms end to end, where each ends, and a 64-bit summary of each (bit `term % 64`
    /// set per term). Flat, so that comparing a prompt with a 900-prompt history touches three arrays, not 900.
    private var terms: [UInt32] = []
    private var ends: [Int] = []
    private var masks: [UInt64] = []
    /// How many of the seen signatures are the history's, which come first: the rest are this session's.
    private let historyCount: Int
    /// The photo's own terms, which a frame leaves out, and the angles cards are known by; none until
    /// ``framing(_:angles:)``.
    private var photoTerms: Set<UInt32> = []
    private var angles = Angles.none
    /// The history's frames the month rule holds, end to end like the signatures above.
    private var heldFrameTerms: [UInt32] = []
    private var heldFrameEnds: [Int] = []
    private var heldFrameMasks: [UInt64] = []
    /// When the user last met each angle, by its index in ``Angles/all``, as far back as the frames' walk went.
    private var angleLastMet: [Int: Date] = [:]
    /// Which of each history signature's terms are its photo's words, for the frames; emptied once they are worked
    /// out, so a second framing walks nothing.
    private var historyPhotoTerms: [UInt32] = []

    /// Nothing seen yet, or the user's `history`.
    public init(language: LanguageTag, history: SeenHistory = []) {
        self.language = language
        historyCount = history.ends.count
        (historyKeys, historyShownAt, historyPhotoTerms) = (history.keys, history.shownAt, history.photoTerms)
        (terms, ends) = (history.terms, history.ends)
        masks.reserveCapacity(ends.count)
        var start = 0
        for end in ends {
            masks.append(Self.mask(terms[start..<end]))
            start = end
        }
    }

    /// The prompts with `shownTexts` seen, in `language`.
    public init(language: LanguageTag, shownTexts: [String]) {
        self.init(language: language)
        for text in shownTexts { insert(text: text, repeatKey: PromptNormalizer.repeatKey(text), signature: nil) }
    }

    /// Whether nothing has been seen.
    public var isEmpty: Bool { keys.isEmpty && historyKeys.isEmpty }

    /// The same, with frames taken against `photo`, the signature of a photo's own words
    /// (``PromptSignature/init(photo:language:)``), and cards known by `angles`: the history's frames the month rule
    /// holds are worked out here, once a request.
    public func framing(_ photo: PromptSignature, angles: Angles) -> SeenPrompts {
        var framed = self
        framed.photoTerms = Set(photo.terms)
        framed.angles = angles
        framed.holdFrames()
        framed.historyPhotoTerms = []
        return framed
    }

    /// Which of `signature`'s first 32 terms are the framed photo's own words (``SeenPrompt/photoTerms``).
    public func photoTermMask(of signature: PromptSignature) -> UInt32 {
        SeenPrompt.photoTerms(of: signature, among: photoTerms)
    }

    /// Nothing seen, with the same language, photo and angles: for prompts compared only with one another.
    public var nothingSeen: SeenPrompts {
        var empty = SeenPrompts(language: language)
        (empty.photoTerms, empty.angles) = (photoTerms, angles)
        return empty
    }

    /// Walks the history from its newest answer back, keeping the frame of each card the user has not met every
    /// other angle since. Once every angle has been met, every older frame is free, and the walk stops.
    private mutating func holdFrames() {
        let order = historyPhotoTerms.indices.sorted { historyShownAt[$0] > historyShownAt[$1] }
        var metSince = Set<Int>()
        for index in order {
            if !angles.all.isEmpty, metSince.count == angles.all.count { break }
            let start = index == 0 ? 0 : ends[index - 1]
            let terms = self.terms[start..<ends[index]]
            let angle = angles.angle(of: terms)
            let others = angles.all.count - (angle == nil ? 0 : 1)
            let othersMet = metSince.count - (angle.map { metSince.contains($0) ? 1 : 0 } ?? 0)
            if angles.all.isEmpty || othersMet < others {
                let (mask, frameStart) = (historyPhotoTerms[index], heldFrameTerms.count)
                for (offset, term) in terms.enumerated() where offset >= 32 || mask & 1 << offset == 0 { heldFrameTerms.append(term) }
                heldFrameEnds.append(heldFrameTerms.count)
                heldFrameMasks.append(Self.mask(heldFrameTerms[frameStart...]))
            }
            if let angle, metSince.insert(angle).inserted { angleLastMet[angle] = historyShownAt[index] }
        }
    }

    /// `prompts` in the order an answer shows them, one at a time: a card whose frame the month holds free, then one
    /// that names something in the photo, then one of an angle neither this session nor the cards before it showed,
    /// then one of the angle the user met longest ago; on a tie, the order given. The free come first, the specific
    /// among them in different angles where they have them, the generic after them in the same way, then the held
    /// ones likewise; what is left (the surplus) keeps the same order for the refreshes.
    public func ranked(_ prompts: [ValidPrompt]) -> [ValidPrompt] {
        guard prompts.count > 1, !angles.all.isEmpty || !photoTerms.isEmpty else { return prompts }
        var shown = Set<Int>()
        var start = historyCount == 0 ? 0 : ends[historyCount - 1]
        for end in ends.dropFirst(historyCount) {
            if let angle = angles.angle(of: terms[start..<end]) { shown.insert(angle) }
            start = end
        }
        var remaining = prompts.map { prompt in
            let terms = (prompt.signature ?? PromptSignature(prompt.text, language: language)).terms
            return (
                prompt: prompt, free: !monthHoldsFrame(of: terms), angle: angles.angle(of: terms),
                specific: terms.contains(where: photoTerms.contains)
            )
        }
        var ranked: [ValidPrompt] = []
        while !remaining.isEmpty {
            func key(_ index: Int) -> (Bool, Bool, Bool, Date) {
                let card = remaining[index]
                let isNew = card.angle.map { !shown.contains($0) } ?? false
                return (card.free, card.specific, isNew, card.angle.flatMap { angleLastMet[$0] } ?? .distantPast)
            }
            let best = remaining.indices.dropFirst().reduce(0) { best, index in
                let (left, right) = (key(best), key(index))
                if left.0 != right.0 { return right.0 ? index : best }
                if left.1 != right.1 { return right.1 ? index : best }
                if left.2 != right.2 { return right.2 ? index : best }
                return right.3 < left.3 ? index : best
            }
            let card = remaining.remove(at: best)
            if let angle = card.angle { shown.insert(angle) }
            ranked.append(card.prompt)
        }
        return ranked
    }

    /// The name of the angle of a card with `signature`, by the angles it was framed with.
    public func angleName(of signature: PromptSignature) -> String? {
        angles.name(of: signature)
    }

    /// Remembers a prompt as shown; `signature` when the caller has it already.
    public mutating func insert(text: String, repeatKey: String, signature: PromptSignature? = nil) {
        keys.insert(repeatKey)
        append(signature ?? PromptSignature(text, language: language))
    }

    private mutating func append(_ signature: PromptSignature) {
        terms += signature.terms
        ends.append(terms.count)
        masks.append(Self.mask(signature.terms[...]))
    }

    private static func mask(_ terms: ArraySlice<UInt32>) -> UInt64 {
        terms.reduce(0) { $0 | 1 << ($1 % 64) }
    }

    /// Remembers every prompt of `prompts` as shown.
    public mutating func insert(_ prompts: [Prompt]) {
        for prompt in prompts { insert(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature) }
    }

    /// Remembers every prompt of `prompts` as shown.
    public mutating func insert(_ prompts: [ValidPrompt]) {
        for prompt in prompts { insert(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature) }
    }

    /// Remembers a prompt known only by its repeat key (one a concurrent refresh committed): exact repeats of it are
    /// seen.
    public mutating func insert(repeatKey: String) {
        keys.insert(repeatKey)
    }

    /// Whether the prompt with `text` and `repeatKey` repeats, exactly or nearly, one seen.
    public func contains(text: String, repeatKey: String, signature: PromptSignature? = nil) -> Bool {
        if keys.contains(repeatKey) { return true }
        if !historyKeys.isEmpty, historyKeys.contains(SeenPrompt.key(repeatKey)) { return true }
        guard !ends.isEmpty else { return false }
        let signature = signature ?? PromptSignature(text, language: language)
        return containsNearDuplicate(of: signature.terms, terms: terms, ends: ends, masks: masks) || sessionHasFrame(of: signature.terms)
    }

    /// Whether the month rule holds the frame of `prompt`. A held card is not dropped but shown last
    /// (``ranked(_:)``): after every card of a free frame, and before the fallback copy, which would otherwise come
    /// back word for word once a month has held every frame a model writes.
    public func holdsFrame(_ prompt: ValidPrompt) -> Bool {
        // A prompt read back from the store carries no signature: with nothing held, none is worked out.
        guard !heldFrameEnds.isEmpty else { return false }
        return monthHoldsFrame(of: (prompt.signature ?? PromptSignature(prompt.text, language: language)).terms)
    }

    /// Whether `prompts` (unseen already) hold an answer's worth of cards whose frames the month holds free: when they
    /// do not, a cached entry or a session's surplus is not served, and the model is asked for fresh frames.
    public func fillsAnswer(_ prompts: [ValidPrompt]) -> Bool {
        prompts.lazy.filter { !holdsFrame($0) }.prefix(ProductSpec.promptsPerAnswer).count == ProductSpec.promptsPerAnswer
    }

    /// Whether the month rule holds the frame of `candidate`: one of the history's held frames is its near-duplicate.
    private func monthHoldsFrame(of candidate: [UInt32]) -> Bool {
        guard !heldFrameEnds.isEmpty else { return false }
        let frame = candidate.filter { !photoTerms.contains($0) }
        return containsNearDuplicate(of: frame, terms: heldFrameTerms, ends: heldFrameEnds, masks: heldFrameMasks)
    }

    /// Whether a prompt of this session has the frame of `candidate`: the two signatures agree, the photo's terms
    /// left out of both. A frame of the photo's words alone is nobody's.
    private func sessionHasFrame(of candidate: [UInt32]) -> Bool {
        guard ends.count > historyCount else { return false }
        let frame = PromptSignature(terms: candidate.filter { !photoTerms.contains($0) })
        guard !frame.terms.isEmpty else { return false }
        var start = historyCount == 0 ? 0 : ends[historyCount - 1]
        for end in ends[historyCount...] {
            defer { start = end }
            if frame.isNearDuplicate(of: PromptSignature(terms: terms[start..<end].filter { !photoTerms.contains($0) })) { return true }
        }
        return false
    }

    /// Whether a signature of the table `terms`, `ends`, `masks` is a near-duplicate of `candidate`
    /// (``PromptSignature/isNearDuplicate(of:)``). A signature is compared term by term only when enough of the
    /// candidate's terms fall on bits of its mask: the terms they share can be no more, so most of a long history is
    /// passed over after a few bit tests.
    private func containsNearDuplicate(of candidate: [UInt32], terms: [UInt32], ends: [Int], masks: [UInt64]) -> Bool {
        guard !candidate.isEmpty else { return false }
        let threshold = PromptSignature.threshold
        let candidateMask = Self.mask(candidate[...])
        // Candidate terms that share a bit with another: a shared term is counted by its bit, so these are added back.
        let collisions = candidate.count - candidateMask.nonzeroBitCount
        return terms.withUnsafeBufferPointer { terms in
            var start = 0
            for (end, mask) in zip(ends, masks) {
                defer { start = end }
                let upperBound = (candidateMask & mask).nonzeroBitCount + collisions
                // Shared terms s make a similarity s / (a + b - s), at least the threshold t when s ≥ t(a + b) / (1 + t).
                guard Double(upperBound) * (1 + threshold) >= threshold * Double(candidate.count + end - start) else { continue }
                let seen = PromptSignature(terms: Array(terms[start..<end]))
                if PromptSignature(terms: candidate).isNearDuplicate(of: seen) { return true }
            }
            return false
        }
    }

    /// Whether `prompt` repeats, exactly or nearly, one seen.
    public func contains(_ prompt: ValidPrompt) -> Bool {
        contains(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature)
    }

    /// When the prompt with `repeatKey` was last shown, by the history: `.distantFuture` for one shown in this
    /// session, `.distantPast` for one the history does not name. What must be shown again goes oldest first.
    public func lastShown(repeatKey: String) -> Date {
        if keys.contains(repeatKey) { return .distantFuture }
        guard !historyKeys.isEmpty else { return .distantPast }
        let key = SeenPrompt.key(repeatKey)
        return zip(historyKeys, historyShownAt).reduce(.distantPast) { last, shown in shown.0 == key ? max(last, shown.1) : last }
    }

    /// `prompts`, in order, without those seen. For prompts known to differ from one another already: a cache
    /// entry, a session's surplus, a generation's candidates.
    public func unseen(_ prompts: [ValidPrompt]) -> [ValidPrompt] {
        isEmpty ? prompts : prompts.filter { !contains($0) }
    }

    /// `prompts`, in order, without those seen and without any that repeats an earlier one of them, each carrying its
    /// signature.
    public func fresh(_ prompts: [ValidPrompt]) -> [ValidPrompt] {
        var seen = self
        var fresh: [ValidPrompt] = []
        for var prompt in prompts {
            prompt.signature = prompt.signature ?? PromptSignature(prompt.text, language: language)
            guard !seen.contains(prompt) else { continue }
            fresh.append(prompt)
            seen.insert(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature)
        }
        return fresh
    }
}
