import Foundation
import PromptDomain

/// A round's prompts as one entry of the user's history: one row per answer shown, its prompts packed in one binary
/// column. One row, not three: every new session writes it, on SQLite's single writer. Binary, so that reading a
/// user's 300 answers copies bytes and parses no text.
package struct HistoryRows {
    package let ownerKey: String
    package let userID: String
    /// Per prompt: its key (8 bytes), the number of its signature's terms (1 byte), the terms (4 bytes each), all
    /// big-endian, as PostgreSQL's migration `v9` wrote the older hex columns.
    package let prompts: Data
    package let shownAt: Double
    package let expiresAt: Double

    /// The entries for `round`, shown at `date` to `userID` of `owner` reading `locale`; nil when nothing is kept:
    /// no user, or no window.
    package init?(_ round: SessionRound, owner: String, userID: String?, locale: LanguageTag, at date: Date, until: Date?) {
        guard let userID, let until, until > date else { return nil }
        self.ownerKey = owner
        self.userID = userID
        prompts = Self.packed(round.prompts.map { SeenPrompt($0, language: locale, shownAt: date) })
        shownAt = date.timeIntervalSince1970
        expiresAt = until.timeIntervalSince1970
    }

    /// A new session's first round, kept until `until`.
    package init?(firstOf session: SessionSnapshot, until: Date?) {
        self.init(session.rounds[0], owner: session.owner, userID: session.userID, locale: session.locale, at: session.createdAt, until: until)
    }

    /// The column's bytes for `prompts`.
    package static func packed(_ prompts: [SeenPrompt]) -> Data {
        var bytes: [UInt8] = []
        for prompt in prompts {
            let terms = prompt.signature.terms.prefix(Int(UInt8.max))
            withUnsafeBytes(of: prompt.key.bigEndian) { bytes += $0 }
            bytes.append(UInt8(terms.count))
            for term in terms { withUnsafeBytes(of: term.bigEndian) { bytes += $0 } }
        }
        return Data(bytes)
    }

    /// The prompts of one stored entry, as its columns read back. Bytes that end early end the list.
    package static func seen(prompts: Data, shownAt: Double) -> [SeenPrompt] {
        let date = Date(timeIntervalSince1970: shownAt)
        return prompts.withUnsafeBytes { bytes in
            var seen: [SeenPrompt] = []
            var offset = 0
            func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
                guard offset + MemoryLayout<T>.size <= bytes.count else { return nil }
                defer { offset += MemoryLayout<T>.size }
                return T(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            while let key = integer(UInt64.self), let count = integer(UInt8.self) {
                var terms: [UInt32] = []
                terms.reserveCapacity(Int(count))
                for _ in 0..<count {
                    guard let term = integer(UInt32.self) else { return seen }
                    terms.append(term)
                }
                seen.append(SeenPrompt(key: key, signature: PromptSignature(terms: terms), shownAt: date))
            }
            return seen
        }
    }
}
