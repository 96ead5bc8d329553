import Foundation

/// How every JSON answer is encoded.
public enum JSONResponse {
    /// One encoder for every response: it is Sendable and keeps no state between calls. Sorted keys make responses byte-for-byte reproducible, which keeps logs, docs, diffs
    /// and idempotent replays stable.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
