import Crypto

/// Hex-encoded SHA-256 digests, used for template versions and cache keys.
enum ContentHash {
    /// The SHA-256 of `text`'s UTF-8 bytes, as lower-case hex.
    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
