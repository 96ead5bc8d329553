import Foundation
import Synchronization

/// The Hunspell dictionaries installed on this machine, by language, each opened on first use.
///
/// Debian's `hunspell-*` packages put them in `/usr/share/hunspell`. Opening one takes 15 to 320 ms and 5 to 40 MB.
/// The service opens them all at start-up on a thread of its own (``openInBackground(languages:)``): opened on first use,
/// the first request in a language held one of the cooperative pool's two threads for that long, and every other
/// request waited behind it. A request that comes before its dictionary is open waits for that one only, under its
/// lock, as before.
public final class SpellingDictionaries: Sendable {
    /// Debian's dictionaries.
    public static let system = SpellingDictionaries(folder: "/usr/share/hunspell")

    /// The dictionary file for each language the real-word check covers, by primary language subtag. Japanese and
    /// Chinese have none; Thai's splits words otherwise than ICU does ("ธรรมดาๆ" became an unknown "ธร"), so Thai
    /// skips the check too.
    package static let files: [String: String] = [
        "ar": "ar", "de": "de_DE", "en": "en_US", "es": "es_ES", "fr": "fr_FR", "it": "it_IT", "nl": "nl_NL", "pt": "pt_BR",
        "hi": "hi_IN", "ko": "ko_KR",
    ]

    /// Languages whose dictionaries miss forms a translator writes: each rejected one word of the reference
    /// translations (a loanword with its particle, "디테일은"; a plural, "खुशबुएँ"). There a
    /// card fails only on what a person does not write: an unknown word of ``gluedLength`` letters or more, or two
    /// unknown words.
    package static let lenient: Set<String> = ["hi", "ko"]

    /// Letters (grapheme clusters) from which an unknown word in a lenient language is taken as words glued
    /// together: Gemma's "그가에게서도나왔을때의가슴을느끼", "औरयहएकसाथसेतोगाद".
    package static let gluedLength = 8

    private let dictionaries: [String: LazyDictionary]
    private let preloading = Mutex(false)

    /// Finds the dictionaries in `folder`; a language whose files are missing has none.
    public init(folder: String) {
        var found: [String: LazyDictionary] = [:]
        for (language, file) in Self.files {
            let base = URL(fileURLWithPath: folder).appendingPathComponent(file).path
            guard FileManager.default.fileExists(atPath: base + ".aff"), FileManager.default.fileExists(atPath: base + ".dic") else { continue }
            found[language] = LazyDictionary(affixes: base + ".aff", words: base + ".dic")
        }
        dictionaries = found
    }

    /// The languages with a dictionary, sorted: said at start-up, so operators know where words are checked.
    public var languages: [String] {
        dictionaries.keys.sorted()
    }

    /// Opens every dictionary of `languages` (primary subtags; nil for all), one after another, on a new thread (not
    /// the cooperative pool's), once per process; returns at once. A language no backend writes never meets the gate.
    public func openInBackground(languages: Set<String>? = nil) {
        let first = preloading.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let all = dictionaries.filter { languages?.contains($0.key) ?? true }.sorted { $0.key < $1.key }.map(\.value)
        Thread.detachNewThread {
            for dictionary in all { _ = dictionary.opened() }
        }
    }

    /// Whether every dictionary has been opened (or found unreadable).
    package var allOpened: Bool {
        dictionaries.values.allSatisfy(\.isOpened)
    }

    /// The dictionary for `language`, opened now if this is its first use; nil where there is none.
    package func dictionary(for language: LanguageTag) -> SpellingDictionary? {
        dictionaries[language.language]?.opened()
    }

    /// A dictionary's files, opened once.
    private final class LazyDictionary: Sendable {
        let affixes: String
        let words: String
        /// nil until first use; then the dictionary, or `.some(nil)` when Hunspell could not open it.
        private let state = Mutex<SpellingDictionary??>(nil)

        init(affixes: String, words: String) {
            self.affixes = affixes
            self.words = words
        }

        var isOpened: Bool {
            state.withLock { $0 != nil }
        }

        func opened() -> SpellingDictionary? {
            state.withLock { state in
                if let opened = state { return opened }
                let opened = SpellingDictionary(affixes: affixes, words: words)
                state = .some(opened)
                return opened
            }
        }
    }
}
