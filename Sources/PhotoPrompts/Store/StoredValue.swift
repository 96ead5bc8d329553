import Foundation

/// How both stores turn column values back into the service's types.
enum StoredValue {
    /// The enum case stored as `raw`; a value this version does not know is a storage error, not a crash.
    static func decode<Value: RawRepresentable<String>>(_ type: Value.Type, _ raw: String) throws -> Value {
        guard let value = Value(rawValue: raw) else { throw StoreError.unknownValue("\(Value.self)", raw) }
        return value
    }
}

/// JSON kept in a text column: photo metadata, surplus and cached prompts, the backend that answered.
enum JSONColumn {
    // Shared: a decoder keeps no state between calls. Columns are written by hand (`JSONBytesWriter`), as the same
    // JSON `JSONEncoder` writes with sorted keys.
    private static let decoder = JSONDecoder()

    static func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
        try decoder.decode(Value.self, from: Data(text.utf8))
    }
}
