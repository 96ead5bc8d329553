import CMeCab
import PromptDomain
import Synchronization

/// Japanese words as MeCab knows them, with IPAdic: the real-word check of a language written without spaces, the
/// only code that talks to MeCab (`Sources/CMeCab`).
///
/// MeCab splits a sentence into the morphemes its dictionary lists, with their inflections; a stretch it cannot
/// split is an unknown node. Katakana writes foreign names and loanwords, which no dictionary lists in full
/// ("プライア・ダ・ロシャ"), so an unknown stretch of katakana or Latin letters counts as a word. ICU's words are joined
/// again first, so MeCab sees the sentence as written. A tagger is not thread-safe, so each call holds its lock.
package final class MorphemeDictionary: WordDictionary {
    private let tagger: Mutex<OpaquePointer>

    package init?(folder: String) {
        guard let tagger = mecab_new2("-d \(folder)") else { return nil }
        self.tagger = Mutex(tagger)
    }

    /// Katakana (with its middle dot and long-vowel mark), and Latin letters and digits.
    private static func writesForeignWords(_ scalar: Unicode.Scalar) -> Bool {
        (0x30A0...0x30FF).contains(scalar.value) || (0xFF66...0xFF9F).contains(scalar.value) || scalar.isASCII
    }

    deinit { tagger.withLock { mecab_destroy($0) } }

    /// The first morpheme of `text` when it is a particle or an auxiliary (IPAdic's 助詞, 助動詞): Japanese puts them
    /// after the word they belong to, so a card that opens with one (Gemma's 「に記入するよう、必要な必要性…」) is broken.
    /// The whole card is tagged, the photo's words with it: 「清水寺で…」 opens with a noun.
    package func brokenOpening(of text: String) -> Substring? {
        tagger.withLock { tagger in
            var node = mecab_sparse_tonode(tagger, text)
            while let current = node, current.pointee.stat == MECAB_BOS_NODE { node = UnsafePointer(current.pointee.next) }
            guard let first = node, first.pointee.stat != MECAB_EOS_NODE, let feature = first.pointee.feature else { return nil }
            let tag = String(cString: feature)
            guard tag.hasPrefix("助詞,") || tag.hasPrefix("助動詞,") else { return nil }
            return Self.surface(of: first).map { Substring($0) }
        }
    }

    /// The stretches of `words`, joined, that MeCab found no word of its dictionary in.
    package func unknown(in words: [Substring]) -> [Substring] {
        let text = words.joined()
        return tagger.withLock { tagger in
            var unknown: [Substring] = []
            var node = mecab_sparse_tonode(tagger, text)
            while let current = node {
                if current.pointee.stat == MECAB_UNK_NODE, let word = Self.surface(of: current) {
                    if !word.unicodeScalars.allSatisfy(Self.writesForeignWords) { unknown.append(Substring(word)) }
                }
                node = UnsafePointer(current.pointee.next)
            }
            return unknown
        }
    }

    private static func surface(of node: UnsafePointer<mecab_node_t>) -> String? {
        guard let surface = node.pointee.surface else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: surface, count: Int(node.pointee.length)), as: UTF8.self)
    }
}
