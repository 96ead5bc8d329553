import Crypto
import Foundation
import PromptDomain

/// The client API keys the service accepts (`API_KEYS`): a name for each, and only the SHA-256 of the key.
///
/// Configured as `name:sha256hex` pairs separated by commas, e.g. `ios:9f86…,web:60303…`; `photo-prompts api-key`
/// makes a key and prints its entry. The service never sees a key it could leak: only digests are kept.
public struct ClientKeys: Sendable {
    private let namesByDigest: [[UInt8]: String]

    /// No keys: the service is open (and then listens on loopback only).
    public static let none = ClientKeys(namesByDigest: [:])

    public var isEmpty: Bool { namesByDigest.isEmpty }

    /// The configured names, sorted, for the start-up log.
    public var names: [String] { namesByDigest.values.sorted() }

    /// Parses `name:sha256hex[,name:sha256hex…]`.
    ///
    /// - Throws: ``ConfigurationError`` naming `API_KEYS` and the entry at fault.
    public static func parse(_ text: String) throws(ConfigurationError) -> ClientKeys {
        var namesByDigest: [[UInt8]: String] = [:]
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let digest = Self.bytes(hex: parts[1]), digest.count == 32 else {
                throw ConfigurationError(
                    key: "API_KEYS",
                    problem: "entries must be name:sha256hex, the SHA-256 of the key as 64 hex digits (got an entry starting \"\(entry.prefix(12))\")"
                )
            }
            guard !namesByDigest.values.contains(parts[0]) else {
                throw ConfigurationError(key: "API_KEYS", problem: "names the client \"\(parts[0])\" twice")
            }
            namesByDigest[digest] = parts[0]
        }
        return ClientKeys(namesByDigest: namesByDigest)
    }

    /// The client's name for `key`, or `nil` when it is not one of ours.
    ///
    /// The key is hashed and the digest looked up: what is compared is a SHA-256, so the time a miss takes says
    /// nothing about how close the guess was.
    public func client(presenting key: String) -> String? {
        namesByDigest[Array(SHA256.hash(data: Array(key.utf8)))]
    }

    /// A new random key (`pp_` and 52 base-32 digits, 256 bits) and its `API_KEYS` entry for `name`.
    public static func generate(name: String) -> (key: String, entry: String) {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        let key = "pp_" + String((0..<52).map { _ in alphabet[Int(generator.next(upperBound: UInt32(32)))] })
        return (key, "\(name):\(ContentHash.sha256Hex(key))")
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let characters = Array(hex.lowercased().utf8)
        guard characters.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
