/// A language's dictionary as the gate's real-word check asks it: which of a card's words it does not know. The
/// domain opens no files: the file-reading layer opens Hunspell's (Debian's packages) and hands them to the gate in
/// ``SpellingDictionaries``.
public protocol WordDictionary: Sendable {
    /// The first of `words` the dictionary does not know, or nil when it knows them all.
    func firstUnknown(in words: [Substring]) -> Substring?
    /// Every one of `words` the dictionary does not know, in order.
    func unknown(in words: [Substring]) -> [Substring]
    /// The word `text`, a whole card, opens with where no sentence of the language can open with it (a Japanese
    /// particle); nil where it opens well, or the dictionary cannot tell.
    func brokenOpening(of text: String) -> Substring?
}

extension WordDictionary {
    /// The first of ``unknown(in:)``; a dictionary that can stop sooner (Hunspell's) finds it on its own.
    public func firstUnknown(in words: [Substring]) -> Substring? { unknown(in: words).first }

    /// Most dictionaries know words, not how a sentence opens.
    public func brokenOpening(of text: String) -> Substring? { nil }
}
