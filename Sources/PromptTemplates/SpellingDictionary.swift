import CHunspell
import PromptDomain
import Synchronization

/// One language's Hunspell dictionaries, one per spelling it is written in (en_US and en_GB): the only code that talks
/// to Hunspell (`Sources/CHunspell`). A word is known when one of them knows it: "favourite" is as much a word as
/// "favorite", and a user in London or Zurich reads their own spelling.
///
/// Hunspell knows a language's words with their inflections and, where the language builds them, its compounds
/// (German's "Sonnenuntergang"). A handle is not documented as thread-safe, so each call holds its lock. A verdict
/// depends on the word alone, so it is kept across requests: Hunspell is asked once per word, not per candidate.
package final class SpellingDictionary: WordDictionary {
    private let handles: Mutex<Lookup>

    /// The handles and their verdicts, reset at ``remembered`` words so invented words cannot grow the process.
    private struct Lookup {
        let handles: [OpaquePointer]
        // Keyed by String, not Substring: a Substring would keep its whole candidate alive.
        var verdicts: [String: Bool] = [:]

        mutating func knows(_ word: Substring) -> Bool {
            let word = String(word)
            if let known = verdicts[word] { return known }
            if verdicts.count >= SpellingDictionary.remembered { verdicts.removeAll(keepingCapacity: true) }
            let known = SpellingDictionary.knows(word, in: handles)
            verdicts[word] = known
            return known
        }
    }

    static let remembered = 100_000

    /// Opens each `.aff`/`.dic` pair Hunspell can open; nil when it can open none.
    package init?(files: [(affixes: String, words: String)]) {
        let handles = files.compactMap { Hunspell_create($0.affixes, $0.words) }
        guard !handles.isEmpty else { return nil }
        self.handles = Mutex(Lookup(handles: handles))
    }

    deinit {
        handles.withLock { lookup in
            for handle in lookup.handles { Hunspell_destroy(handle) }
        }
    }

    /// The first of `words` no spelling knows, or nil when they are all known.
    package func firstUnknown(in words: [Substring]) -> Substring? {
        handles.withLock { lookup in words.first { !lookup.knows($0) } }
    }

    /// Every one of `words` no spelling knows, in order.
    package func unknown(in words: [Substring]) -> [Substring] {
        handles.withLock { lookup in words.filter { !lookup.knows($0) } }
    }

    private static func knows(_ text: String, in handles: [OpaquePointer]) -> Bool {
        // Models type the typographic apostrophe; not every dictionary lists its words with it.
        let typed = text.contains("\u{2019}") ? text.replacing("\u{2019}", with: "'") : nil
        return handles.contains { handle in
            Hunspell_spell(handle, text) != 0 || typed.map { Hunspell_spell(handle, $0) != 0 } ?? false
        }
    }
}
