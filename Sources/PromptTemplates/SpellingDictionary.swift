import CHunspell
import PromptDomain
import Synchronization

/// One language's Hunspell dictionaries, one per spelling it is written in (en_US and en_GB): the only code that talks
/// to Hunspell (`Sources/CHunspell`). A word is known when one of them knows it: "favourite" is as much a word as
/// "favorite", and a user in London or Zurich reads their own spelling.
///
/// Hunspell knows a language's words with their inflections and, where the language builds them, its compounds
/// (German's "Sonnenuntergang"); it is the spell checker of LibreOffice and Firefox. A handle is not documented as
/// safe to share between threads, so each call holds its lock: a few microseconds per candidate.
package final class SpellingDictionary: WordDictionary {
    private let handles: Mutex<[OpaquePointer]>

    /// Opens the dictionaries made of each pair's `affixes` (`.aff`) and `words` (`.dic`) that Hunspell can open; nil
    /// when it can open none.
    package init?(files: [(affixes: String, words: String)]) {
        let handles = files.compactMap { Hunspell_create($0.affixes, $0.words) }
        guard !handles.isEmpty else { return nil }
        self.handles = Mutex(handles)
    }

    deinit {
        handles.withLock { handles in
            for handle in handles { Hunspell_destroy(handle) }
        }
    }

    /// The first of `words` no spelling knows, or nil when they are all known.
    package func firstUnknown(in words: [Substring]) -> Substring? {
        handles.withLock { handles in words.first { !Self.knows($0, in: handles) } }
    }

    /// Every one of `words` no spelling knows, in order.
    package func unknown(in words: [Substring]) -> [Substring] {
        handles.withLock { handles in words.filter { !Self.knows($0, in: handles) } }
    }

    private static func knows(_ word: Substring, in handles: [OpaquePointer]) -> Bool {
        let text = String(word)
        // Models type the typographic apostrophe; not every dictionary lists its words with it.
        let typed = word.contains("\u{2019}") ? text.replacing("\u{2019}", with: "'") : nil
        return handles.contains { handle in
            Hunspell_spell(handle, text) != 0 || typed.map { Hunspell_spell(handle, $0) != 0 } ?? false
        }
    }
}
