import Foundation
import PromptDomain

/// The client keys (`API_KEYS`: `name:sha256hex,…`; `photo-prompts api-key` makes one) by name and SHA-256 only,
/// so the service never holds a key it could leak.
public struct ClientKeys: Sendable {
    /// Keyed by the SHA-256 in lowercase hex, as `ContentHash.sha256Hex` writes it.
    private let namesByDigest: [String: String]

    /// No keys: the service is open (and then listens on loopback only).
    public static let none = ClientKeys(namesByDigest: [:])

    public var isEmpty: Bool { namesByDigest.isEmpty }

    /// The configured names, sorted, for the start-up log.
    public var names: [String] { namesByDigest.values.sorted() }

    /// Parses `name:sha256hex[,name:sha256hex…]`.
    /// - Throws: ``ConfigurationError`` naming `API_KEYS` and the entry at fault.
    public static func parse(_ text: String) throws(ConfigurationError) -> ClientKeys {
        var namesByDigest: [String: String] = [:]
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].count == 64, parts[1].allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
                throw ConfigurationError(
                    key: "API_KEYS",
                    problem: "entries must be name:sha256hex, the SHA-256 of the key as 64 hex digits (got an entry starting \"\(entry.prefix(12))\")"
                )
            }
            guard !namesByDigest.values.contains(parts[0]) else {
                throw ConfigurationError(key: "API_KEYS", problem: "names the client \"\(parts[0])\" twice")
            }
            namesByDigest[parts[1].lowercased()] = parts[0]
        }
        return ClientKeys(namesByDigest: namesByDigest)
    }

    /// The client's name for `key`, or `nil`. Hashed first, so a miss's time says nothing of how close a guess was.
    public func client(presenting key: String) -> String? {
        namesByDigest[ContentHash.sha256Hex(key)]
    }

    /// A new random key (`pp_` and 52 base-32 digits, 256 bits) and its `API_KEYS` entry for `name`.
    public static func generate(name: String) -> (key: String, entry: String) {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        let key = "pp_" + String((0..<52).map { _ in alphabet[Int(generator.next(upperBound: UInt32(32)))] })
        return (key, "\(name):\(ContentHash.sha256Hex(key))")
    }
}
