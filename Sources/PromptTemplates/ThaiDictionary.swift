import CThai
import PromptDomain
import Synchronization

/// Thai words as libthai knows them: the real-word check of a language written without spaces between words, the
/// only code that talks to libthai and libdatrie (`Sources/CThai`).
///
/// libthai splits a run of Thai letters where its dictionary's words end; a piece that same dictionary (`thbrk.tri`)
/// does not list is unknown: what the breaker was left with between words it knew. ICU's words are joined again
/// first, so libthai sees the text as written. Neither handle is documented as thread-safe, so calls hold the lock.
package final class ThaiDictionary: WordDictionary {
    private struct Handles: @unchecked Sendable {
        let breaker: OpaquePointer
        let words: OpaquePointer
    }

    private let handles: Mutex<Handles>

    package init?(path: String) {
        guard let words = trie_new_from_file(path) else { return nil }
        guard let breaker = th_brk_new(nil) else {
            trie_free(words)
            return nil
        }
        handles = Mutex(Handles(breaker: breaker, words: words))
    }

    deinit {
        handles.withLock { handles in
            th_brk_delete(handles.breaker)
            trie_free(handles.words)
        }
    }

    /// The pieces of the Thai letters of `words`, split by libthai, that its dictionary does not list.
    package func unknown(in words: [Substring]) -> [Substring] {
        let runs = words.joined().split { !Self.isThaiLetter($0) }
        return handles.withLock { handles in
            runs.flatMap { run in Self.pieces(of: run, breaker: handles.breaker).filter { !Self.lists($0, handles.words) } }
        }
    }

    /// Thai letters, vowels and tone marks (U+0E01–U+0E4E), without the repetition mark ๆ and the abbreviation mark ฯ.
    private static func isThaiLetter(_ character: Character) -> Swift.Bool {
        character.unicodeScalars.allSatisfy { (0x0E01...0x0E4E).contains($0.value) && $0.value != 0x0E46 && $0.value != 0x0E2F }
    }

    private static func pieces(of run: Substring, breaker: OpaquePointer) -> [Substring] {
        let scalars = Array(run.unicodeScalars)
        var text = scalars.map { wchar_t(bitPattern: $0.value) } + [0]
        var breaks = [Int32](repeating: 0, count: scalars.count + 1)
        let found = Int(th_brk_wc_find_breaks(breaker, &text, &breaks, breaks.count))
        var pieces: [Substring] = []
        var start = 0
        for end in breaks.prefix(found).map(Int.init) + [scalars.count] where end > start {
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: scalars[start..<end])
            pieces.append(Substring(String(piece)))
            start = end
        }
        return pieces
    }

    private static func lists(_ word: Substring, _ trie: OpaquePointer) -> Swift.Bool {
        var key = word.unicodeScalars.map { AlphaChar($0.value) } + [0]
        return trie_retrieve(trie, &key, nil) != DA_FALSE
    }
}
