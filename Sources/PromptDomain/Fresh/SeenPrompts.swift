import Foundation

/// Everything a user has been shown that a new prompt must not repeat: a session's rounds and the user's history.
/// A prompt is seen when its repeat key matches, when it is a near-duplicate (``PromptSignature``), or when it has
/// the frame of, or is worded within two words of, one shown this session (``PromptSignature/isRewording(of:)``).
///
/// A frame is a signature without the photo's own words (``framing(_:angles:)``): two cards of one frame about two
/// things in one photo read as one question twice. Across a month a frame is held until the user has met every other
/// angle (``Angles``) since, so a daily user meets a different kind of question each day; a held card is shown last.
///
/// Consulted on every answer, cache hits included, so it skips what it can: nothing seen, nothing computed; history
/// keys are scanned, not hashed (a few lookups would not repay a table); a prompt's own signature is not redone.
public struct SeenPrompts: Sendable {
    public let language: LanguageTag
    /// This session's repeat keys.
    private var keys: Set<String> = []
    /// The history's repeat keys as the store keeps them (``SeenPrompt/key(_:)``), and when each was shown.
    private var historyKeys: [UInt64] = []
    private var historyShownAt: [Date] = []
    /// Seen signatures, flat (terms, ends, masks of bit `term % 64`): a 900-prompt history is three arrays, not 900.
    private var terms: [UInt32] = []
    private var ends: [Int] = []
    private var masks: [UInt64] = []
    /// How many of the seen signatures are the history's, which come first: the rest are this session's.
    private let historyCount: Int
    /// This session's signatures whole, for their wordings: the flat table above keeps only terms.
    private var sessionSignatures: [PromptSignature] = []
    /// The photo's own terms, which a frame leaves out, and the cards' angles; set by ``framing(_:angles:)``.
    private var photoTerms: Set<UInt32> = []
    private var angles = Angles.none
    /// The history's frames the month rule holds, end to end like the signatures above.
    private var heldFrameTerms: [UInt32] = []
    private var heldFrameEnds: [Int] = []
    private var heldFrameMasks: [UInt64] = []
    /// When the user last met each angle, by its index in ``Angles/all``, as far back as the frames' walk went.
    private var angleLastMet: [Int: Date] = [:]
    /// Which history terms are their photo's words, for the frames; emptied once used, so reframing walks nothing.
    private var historyPhotoTerms: [UInt32] = []

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

    public init(language: LanguageTag, shownTexts: [String]) {
        self.init(language: language)
        for text in shownTexts { insert(text: text, repeatKey: PromptNormalizer.repeatKey(text), signature: nil) }
    }

    public var isEmpty: Bool { keys.isEmpty && historyKeys.isEmpty }

    /// The same, framed against `photo` (``PromptSignature/init(photo:language:)``) and `angles`: the month's held
    /// frames are worked out here, once a request.
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

    /// `prompts` in the order an answer shows them, picked one at a time: free frame first, then naming something in
    /// the photo, then an angle not yet shown, then the angle met longest ago; ties keep the given order. The surplus
    /// left for refreshes is ranked the same way.
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

    public func angleName(of signature: PromptSignature) -> String? {
        angles.name(of: signature)
    }

    /// Remembers a prompt as shown; `signature` when the caller has it already.
    public mutating func insert(text: String, repeatKey: String, signature: PromptSignature? = nil) {
        keys.insert(repeatKey)
        append(signature ?? PromptSignature(text, language: language))
    }

    private mutating func append(_ signature: PromptSignature) {
        sessionSignatures.append(signature)
        terms += signature.terms
        ends.append(terms.count)
        masks.append(Self.mask(signature.terms[...]))
    }

    private static func mask(_ terms: ArraySlice<UInt32>) -> UInt64 {
        terms.reduce(0) { $0 | 1 << ($1 % 64) }
    }

    public mutating func insert(_ prompts: [Prompt]) {
        for prompt in prompts { insert(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature) }
    }

    public mutating func insert(_ prompts: [ValidPrompt]) {
        for prompt in prompts { insert(text: prompt.text, repeatKey: prompt.repeatKey, signature: prompt.signature) }
    }

    /// Remembers a prompt known only by its repeat key (one a concurrent refresh committed).
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
            || sessionSignatures.contains(where: signature.isRewording)
    }

    /// Whether the month rule holds `prompt`'s frame. A held card is shown last (``ranked(_:)``), not dropped: else
    /// the fallback copy would come back word for word once a month holds every frame a model writes.
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

    /// Whether a session prompt has `candidate`'s frame (photo terms left out); a frame of photo words is nobody's.
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

    /// Whether a signature in the table `terms`, `ends`, `masks` is a near-duplicate of `candidate`. Terms are compared
    /// only when the masks' shared bits allow enough shared terms, so most of a long history costs a few bit tests.
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
                // s shared terms make a similarity s / (a + b - s) ≥ threshold t when s ≥ t(a + b) / (1 + t).
                guard Double(upperBound) * (1 + threshold) >= threshold * Double(candidate.count + end - start) else { continue }
                let seen = PromptSignature(terms: Array(terms[start..<end]))
                if PromptSignature(terms: candidate).isNearDuplicate(of: seen) { return true }
            }
            return false
        }
    }

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

    /// `prompts`, in order, without those seen; for prompts already known to differ from one another.
    public func unseen(_ prompts: [ValidPrompt]) -> [ValidPrompt] {
        isEmpty ? prompts : prompts.filter { !contains($0) }
    }

    /// `prompts`, in order, without those seen or repeating an earlier one, each carrying its signature.
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
