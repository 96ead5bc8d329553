/// How both stores turn column values back into the service's types.
package enum StoredValue {
    /// The enum case stored as `raw`; a value this version does not know is a storage error, not a crash.
    package static func decode<Value: RawRepresentable<String>>(_ type: Value.Type, _ raw: String) throws -> Value {
        guard let value = Value(rawValue: raw) else { throw StoreError.unknownValue("\(Value.self)", raw) }
        return value
    }
}
