import CStemmer
import Synchronization

/// Snowball's stemmer for one language ("remembered", "remembering" → "rememb"), used under a lock as it writes into
/// its own buffer; a stem takes a microsecond or two, far less than anything else a request does.
final class Stemmer: Sendable {
    /// Snowball's algorithm for each shipped language that has one. Japanese, Chinese, Korean and Thai have none:
    /// their words are ICU's (``PromptSignature``).
    private static let algorithms = [
        "en": "english", "es": "spanish", "pt": "portuguese", "fr": "french", "de": "german", "it": "italian",
        "nl": "dutch", "ar": "arabic", "hi": "hindi",
    ]

    /// One stemmer per language, opened on first use (microseconds each) and kept for the process; read without a lock.
    private static let opened: [String: Stemmer] = algorithms.compactMapValues { Stemmer(algorithm: $0) }

    private let stemmer: Mutex<OpaquePointer>

    private init?(algorithm: String) {
        guard let stemmer = sb_stemmer_new(algorithm, "UTF_8") else { return nil }
        self.stemmer = Mutex(stemmer)
    }

    /// The stemmer for `language` (a primary subtag), or nil when Snowball has none for it.
    static func `for`(_ language: String) -> Stemmer? {
        opened[language]
    }

    /// The stem of `word`, which should be lower-cased already.
    func stem(_ word: String) -> String {
        let bytes = Array(word.utf8)
        return stemmer.withLock { stemmer in
            guard let stemmed = sb_stemmer_stem(stemmer, bytes, Int32(bytes.count)) else { return word }
            let length = Int(sb_stemmer_length(stemmer))
            return String(decoding: UnsafeBufferPointer(start: stemmed, count: length), as: UTF8.self)
        }
    }
}
