import CHunspell
import PromptDomain
import Synchronization

/// One Hunspell dictionary: the only code that talks to Hunspell (`Sources/CHunspell`).
///
/// Hunspell knows a language's words with their inflections and, where the language builds them, its compounds
/// (German's "Sonnenuntergang"); it is the spell checker of LibreOffice and Firefox. A handle is not documented as
/// safe to share between threads, so each call holds its lock: a few microseconds per candidate.
package final class SpellingDictionary: WordDictionary {
    private let handle: Mutex<OpaquePointer>

    /// Opens the dictionary made of `affixes` (`.aff`) and `words` (`.dic`); nil when Hunspell cannot.
    package init?(affixes: String, words: String) {
        guard let handle = Hunspell_create(affixes, words) else { return nil }
        self.handle = Mutex(handle)
    }

    deinit {
        handle.withLock { Hunspell_destroy($0) }
    }

    /// The first of `words` the dictionary does not know, or nil when it knows them all.
    package func firstUnknown(in words: [Substring]) -> Substring? {
        handle.withLock { handle in words.first { !Self.knows($0, handle) } }
    }

    /// Every one of `words` the dictionary does not know, in order.
    package func unknown(in words: [Substring]) -> [Substring] {
        handle.withLock { handle in words.filter { !Self.knows($0, handle) } }
    }

    private static func knows(_ word: Substring, _ handle: OpaquePointer) -> Bool {
        if Hunspell_spell(handle, String(word)) != 0 { return true }
        // Models type the typographic apostrophe; not every dictionary lists its words with it.
        guard word.contains("\u{2019}") else { return false }
        return Hunspell_spell(handle, String(word).replacing("\u{2019}", with: "'")) != 0
    }
}
