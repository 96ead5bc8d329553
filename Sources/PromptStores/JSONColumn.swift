import Foundation
import PromptDomain

/// JSON kept in a text column: photo metadata, surplus and cached prompts, the backend that answered.
package enum JSONColumn {
    // Columns are written by hand (`JSONBytesWriter`), as the same JSON `JSONEncoder` writes with sorted keys, and read
    // with the one decoder, whose snake_case reads the photo's `taken_at` and leaves a prompt's `wordCount` as it is.
    package static func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
        try SnakeCaseJSON.decoder.decode(Value.self, from: Data(text.utf8))
    }

    /// `value` as sorted-key JSON text, for the few columns not on a request's path (the console's archive).
    package static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static let encoder = SnakeCaseJSON.makeEncoder(.sortedKeys)
}
