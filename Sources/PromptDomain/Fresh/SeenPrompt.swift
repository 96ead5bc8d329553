import Crypto
import Foundation

/// One prompt a user was shown, as their history keeps it: its repeat key's hash and its signature, never its text.
public struct SeenPrompt: Sendable, Equatable {
    /// A hash of the prompt's repeat key (``PromptNormalizer/repeatKey(_:)``): equal for exact repeats.
    public var key: UInt64
    public var signature: PromptSignature
    public var shownAt: Date
    /// Which of the signature's first 32 terms are the photo's own words (bit `i` for `signature.terms[i]`): the rest
    /// is its frame, which the month rule compares with later cards about other photos.
    public var photoTerms: UInt32

    public init(key: UInt64, signature: PromptSignature, shownAt: Date, photoTerms: UInt32 = 0) {
        self.key = key
        self.signature = signature
        self.shownAt = shownAt
        self.photoTerms = photoTerms
    }

    /// The record of `prompt`, shown at `shownAt` to a user reading `language`, about a photo whose own words sign as
    /// `photo`, unless the prompt carries which of its terms are the photo's already.
    public init(_ prompt: Prompt, language: LanguageTag, shownAt: Date, photo: PromptSignature = .none) {
        let signature = prompt.signature ?? PromptSignature(prompt.text, language: language)
        let photoTerms = prompt.photoTerms ?? Self.photoTerms(of: signature, among: Set(photo.terms))
        self.init(key: Self.key(prompt.repeatKey), signature: signature, shownAt: shownAt, photoTerms: photoTerms)
    }

    /// Which of `signature`'s first 32 terms are in `own`, a photo's own terms: bit `i` for `signature.terms[i]`.
    public static func photoTerms(of signature: PromptSignature, among own: Set<UInt32>) -> UInt32 {
        signature.terms.prefix(32).enumerated().reduce(UInt32(0)) { mask, term in
            own.contains(term.element) ? mask | 1 << term.offset : mask
        }
    }

    /// The stored form of a repeat key: the first 8 bytes of its SHA-256, so the history does not hold the text.
    public static func key(_ repeatKey: String) -> UInt64 {
        SHA256.hash(data: Array(repeatKey.utf8)).withUnsafeBytes { digest in
            digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    /// The key as the user's data export shows it: 16 hex digits, the SHA-256's first.
    public var keyHex: String {
        let hex = String(key, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
