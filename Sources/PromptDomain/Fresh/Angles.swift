import Foundation

/// The kinds of question a card can ask in one language: the senses, the people, what came just before, a feeling…
/// Listed in `prompts/angles/<tag>.txt`, one per line: name | how the template asks | words that show it.
///
///     senses | what they saw, heard, smelled, tasted or touched | sound, smell, hear, taste, touch, colour
///
/// A card's angle is the one with most words in the card (first listed on a tie); a word of several ("just before")
/// counts when all its parts do. Words match as ``PromptSignature`` terms, so "smelled" shows the senses, and a
/// history of signatures alone still knows every card's angle.
public struct Angles: Sendable, Equatable {
    /// One angle: its name (the same in every language, for the stats), its wording and its words' terms.
    public struct Angle: Sendable, Equatable {
        public let name: String
        public let wording: String
        let cues: Set<[UInt32]>
    }

    /// Every angle, in the order the file lists them.
    public let all: [Angle]

    /// Each cue under its first term, with the index of its angle: a card's angle is found from its own dozen terms,
    /// not by trying every cue of every angle, and the month rule asks it of up to 900 cards a request.
    private let cuesByTerm: [UInt32: [(angle: Int, terms: [UInt32])]]
    /// Bit `term % 1024` per cue's first term: most card terms begin no cue, and this says so without hashing.
    private let firstTerms: [UInt64]

    public static let none = Angles(all: [])

    private init(all: [Angle]) {
        self.all = all
        var cuesByTerm: [UInt32: [(angle: Int, terms: [UInt32])]] = [:]
        var firstTerms = [UInt64](repeating: 0, count: 16)
        for (index, angle) in all.enumerated() {
            for cue in angle.cues {
                cuesByTerm[cue[0], default: []].append((index, cue))
                firstTerms[Int(cue[0] >> 6 & 15)] |= 1 << (cue[0] & 63)
            }
        }
        self.cuesByTerm = cuesByTerm
        self.firstTerms = firstTerms
    }

    public static func == (left: Angles, right: Angles) -> Bool {
        left.all == right.all
    }

    /// The angles of a file's `lines` in `language`; only those named in `only`, in its order, when it is given.
    /// - Throws: for a line without three parts, or a word no signature keeps ("the": it could never show an angle).
    public init(lines: [String], language: LanguageTag, only names: [String]? = nil) throws(AnglesError) {
        var parsed: [(line: String, name: String, wording: String, words: [String])] = []
        for line in lines {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw AnglesError(line: line, problem: "is not `name | wording | words, …`")
            }
            let words = parts[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            parsed.append((line, parts[0], parts[1], words))
        }
        var signatures = PromptSignature.signatures(of: parsed.flatMap(\.words), language: language)[...]
        var angles: [Angle] = []
        for entry in parsed {
            var cues = Set<[UInt32]>()
            for (word, signature) in zip(entry.words, signatures.prefix(entry.words.count)) {
                guard !signature.terms.isEmpty else { throw AnglesError(line: entry.line, problem: "has “\(word)”, a word no signature keeps") }
                cues.insert(signature.terms)
            }
            signatures = signatures.dropFirst(entry.words.count)
            angles.append(Angle(name: entry.name, wording: entry.wording, cues: cues))
        }
        if let names {
            angles = try names.map { name throws(AnglesError) in
                guard let angle = angles.first(where: { $0.name == name }) else {
                    throw AnglesError(line: name, problem: "is named in settings.json's \"angles\" but not listed here")
                }
                return angle
            }
        }
        self.init(all: angles)
    }

    /// The index in ``all`` of the angle of a card with `terms` (a signature's: sorted, each once), or nil.
    public func angle(of terms: some Collection<UInt32>) -> Int? {
        guard !all.isEmpty else { return nil }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: all.count) { hits in
            hits.initialize(repeating: 0)
            for term in terms where firstTerms[Int(term >> 6 & 15)] & 1 << (term & 63) != 0 {
                for cue in cuesByTerm[term] ?? [] where cue.terms.allSatisfy(terms.contains) { hits[cue.angle] += 1 }
            }
            guard let most = hits.max(), most > 0 else { return nil }
            return hits.firstIndex(of: most)
        }
    }

    public func name(of signature: PromptSignature) -> String? {
        angle(of: signature.terms).map { all[$0].name }
    }
}

extension Angles {
    /// A template's angles in every language it has a file for, parsed once when the template's lists are set.
    public struct Catalog: Sendable, Equatable {
        private let byTag: [String: Angles]
        /// The files' fingerprint: the angles shape the system message, so they are part of the cache key.
        package let fingerprint: String

        public static let none = Catalog(byTag: [:], fingerprint: "-")

        private init(byTag: [String: Angles], fingerprint: String) {
            self.byTag = byTag
            self.fingerprint = fingerprint
        }

        public init(_ lists: LanguageLists, only names: [String]? = nil) throws(AnglesError) {
            var byTag: [String: Angles] = [:]
            for (tag, lines) in lists.linesByTag {
                do {
                    byTag[tag] = try Angles(lines: lines, language: LanguageTag(locale: tag), only: names)
                } catch {
                    throw AnglesError(tag: tag, line: error.line, problem: error.problem)
                }
            }
            self.byTag = byTag
            fingerprint = lists.fingerprint
        }

        /// The angles for `language`: the most specific file that matches it, none when no file does.
        public func angles(for language: LanguageTag) -> Angles {
            CopyMatching.candidates(for: language).lazy.compactMap { byTag[$0.lowercased()] }.first ?? .none
        }
    }
}

/// A line of an angles file that cannot be used.
public struct AnglesError: Error, Sendable {
    /// The file's language tag, lower-cased; empty until the catalog names it.
    public var tag = ""
    public let line: String
    public let problem: String
}
