import Foundation

/// JSON kept in a text column: photo metadata, surplus and cached prompts, the backend that answered.
package enum JSONColumn {
    // Shared: a decoder keeps no state between calls. Columns are written by hand (`JSONBytesWriter`), as the same
    // JSON `JSONEncoder` writes with sorted keys.
    private static let decoder = JSONDecoder()

    package static func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
        try decoder.decode(Value.self, from: Data(text.utf8))
    }

    /// `value` as sorted-key JSON text, for the few columns not on a request's path (the console's archive).
    package static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
