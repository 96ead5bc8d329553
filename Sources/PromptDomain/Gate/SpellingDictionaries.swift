import Foundation
import Synchronization

/// The dictionaries of the gate's real-word check, by language, each opened once: on first use, or all at start-up.
///
/// The file-reading layer hands in how to open each (`debian()`, in PromptTemplates: Debian's Hunspell). The app
/// opens one set in `buildServices`; two apps in one process share none. Opening one takes 15 to 320 ms and 5 to 40
/// MB, so the service opens them all at start-up on a thread of its own (``openInBackground(languages:)``): opened on
/// first use, one held a cooperative pool thread that long while other requests waited. A request that comes before
/// its dictionary is open waits for that one only.
public final class SpellingDictionaries: Sendable {
    /// Letters from which an unknown word is taken as words glued together ("औरयहएकसाथसेतोगाद"), where unknowns pass.
    package static let gluedLength = 8

    private let dictionaries: [String: LazyDictionary]
    private let preloading = Mutex(StartUp.notAsked)
    /// Each dictionary's coverage, by language and the good questions' fingerprint: measured once per list.
    private let coverages = Mutex<[String: DictionaryCoverage]>([:])

    /// Dictionaries opened once each by `openers` (by primary subtag; nil: cannot open); none skips the word check.
    public init(opening openers: [String: @Sendable () -> (any WordDictionary)?] = [:]) {
        dictionaries = openers.mapValues(LazyDictionary.init)
    }

    /// The languages with a dictionary, sorted: said at start-up, so operators know where words are checked.
    public var languages: [String] {
        dictionaries.keys.sorted()
    }

    /// Opens every dictionary of `languages` (primary subtags; nil for all), one after another, on a new thread (not
    /// the cooperative pool's), once per process; returns at once. A language no backend writes never meets the gate.
    public func openInBackground(languages: Set<String>? = nil) {
        let first = preloading.withLock { state in
            defer { if state == .notAsked { state = .opening } }
            return state == .notAsked
        }
        guard first else { return }
        let all = dictionaries.filter { languages?.contains($0.key) ?? true }.sorted { $0.key < $1.key }.map(\.value)
        Thread.detachNewThread { [self] in
            for dictionary in all { _ = dictionary.opened() }
            preloading.withLock { $0 = .opened }
        }
    }

    /// Where the start-up opening is: `/readyz` reports it, so a benchmark measures the service once it is done
    /// (it takes seconds of one core's time) and an operator sees why the first seconds are slower.
    public enum StartUp: String, Sendable {
        /// ``openInBackground(languages:)`` was not called: each dictionary opens on first use.
        case notAsked = "on first use"
        case opening
        case opened = "open"
    }

    public var startUp: StartUp { preloading.withLock { $0 } }

    /// Whether every dictionary has been opened (or found unreadable).
    package var allOpened: Bool {
        dictionaries.values.allSatisfy(\.isOpened)
    }

    package func isOpened(_ language: String) -> Bool {
        dictionaries[language]?.isOpened ?? false
    }

    /// The dictionary for `language`, opened now if this is its first use; nil where there is none.
    package func dictionary(for language: LanguageTag) -> (any WordDictionary)? {
        dictionaries[language.language]?.opened()
    }

    /// The coverage of `language`'s dictionary, worked out by `measure` the first time a list (`fingerprint`) asks.
    package func coverage(
        of language: LanguageTag,
        fingerprint: String,
        measure: (any WordDictionary) -> DictionaryCoverage
    ) -> DictionaryCoverage? {
        guard let dictionary = dictionary(for: language) else { return nil }
        let key = language.language + "\u{0}" + fingerprint
        if let known = coverages.withLock({ $0[key] }) { return known }
        let measured = measure(dictionary)
        coverages.withLock { $0[key] = measured }
        return measured
    }

    private final class LazyDictionary: Sendable {
        private let open: @Sendable () -> (any WordDictionary)?
        /// nil until first use; then the dictionary, or `.some(nil)` when it could not be opened.
        private let state = Mutex<(any WordDictionary)??>(nil)

        init(_ open: @escaping @Sendable () -> (any WordDictionary)?) {
            self.open = open
        }

        var isOpened: Bool {
            state.withLock { $0 != nil }
        }

        func opened() -> (any WordDictionary)? {
            state.withLock { state in
                if let opened = state { return opened }
                let opened = open()
                state = .some(opened)
                return opened
            }
        }
    }
}
