import Foundation
import PromptDomain

extension SpellingDictionaries {
    /// A new set of Debian's Hunspell dictionaries (`hunspell-*`, `/usr/share/hunspell`): each process opens its own.
    public static func debian() -> SpellingDictionaries { SpellingDictionaries(hunspellFolder: "/usr/share/hunspell") }

    /// The Hunspell files by primary language subtag: one per spelling where Debian's first does not know the others'
    /// ("colour", Swiss "Strasse"; pt_BR knows Portugal's words already). Japanese, Thai and Chinese, written without
    /// spaces, use dictionaries of their own kind (MeCab's, libthai's, jieba's): Hunspell's Thai split words otherwise
    /// than ICU does ("ธรรมดาๆ" became an unknown "ธร").
    package static let files: [String: [String]] = [
        "ar": ["ar"], "de": ["de_DE", "de_CH"], "en": ["en_US", "en_GB"], "es": ["es_ES"], "fr": ["fr_FR"], "it": ["it_IT"],
        "nl": ["nl_NL"], "pt": ["pt_BR"], "hi": ["hi_IN"], "ko": ["ko_KR"],
    ]

    /// Where Debian's `mecab-ipadic-utf8` puts IPAdic, MeCab's dictionary of Japanese.
    public static let ipadic = "/var/lib/mecab/dic/ipadic-utf8"
    /// Where Debian's `libthai-data` puts libthai's dictionary of Thai.
    public static let libthaiWords = "/usr/share/libthai/thbrk.tri"
    /// Where Debian's `python3-jieba` puts jieba's word list of Chinese.
    public static let jiebaWords = "/usr/lib/python3/dist-packages/jieba/dict.txt"

    /// The Hunspell dictionaries in `folder`, MeCab's for Japanese at `japanese`, libthai's at `thai` and jieba's list
    /// for Chinese at `chinese`, each opened on first use; a language whose files are missing has none.
    public convenience init(
        hunspellFolder folder: String,
        japanese: String = ipadic,
        thai: String = libthaiWords,
        chinese: String = jiebaWords
    ) {
        var openers: [String: @Sendable () -> (any WordDictionary)?] = [:]
        for (language, names) in Self.files {
            let files = names.map { URL(fileURLWithPath: folder).appendingPathComponent($0).path }.map { (affixes: $0 + ".aff", words: $0 + ".dic") }
                .filter { FileManager.default.fileExists(atPath: $0.affixes) && FileManager.default.fileExists(atPath: $0.words) }
            guard !files.isEmpty else { continue }
            openers[language] = { SpellingDictionary(files: files) }
        }
        if FileManager.default.fileExists(atPath: japanese + "/sys.dic") { openers["ja"] = { MorphemeDictionary(folder: japanese) } }
        if FileManager.default.fileExists(atPath: thai) { openers["th"] = { ThaiDictionary(path: thai) } }
        if FileManager.default.fileExists(atPath: chinese) { openers["zh"] = { ChineseDictionary(path: chinese) } }
        self.init(opening: openers)
    }
}
