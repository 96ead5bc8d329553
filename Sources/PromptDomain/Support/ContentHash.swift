import Crypto
import Foundation

/// Hex-encoded SHA-256 digests, used for template versions and cache keys.
package enum ContentHash {
    /// The SHA-256 of `text`'s UTF-8 bytes, as lower-case hex.
    package static func sha256Hex(_ text: String) -> String {
        sha256Hex(Array(text.utf8))
    }

    package static func sha256Hex(_ bytes: some DataProtocol) -> String {
        SHA256.hash(data: bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
