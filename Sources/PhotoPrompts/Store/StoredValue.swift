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
    // Shared: a decoder keeps no state between calls, and making one per column showed up in profiles. Columns are
    // written by hand (`HandWrittenJSON.swift`), as the same JSON `JSONEncoder` writes with sorted keys.
    private static let decoder = JSONDecoder()

    static func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
        try decoder.decode(Value.self, from: Data(text.utf8))
    }
}

/// Store failures that are not the database's own.
enum StoreError: Error, CustomStringConvertible {
    /// The session was deleted (pruned) between reserving and committing a refresh.
    case sessionVanished
    /// A column held a value this version does not know, e.g. written by a newer version.
    case unknownValue(String, String)
    /// The database (named with its password masked) did not answer at start-up within the time given.
    case unreachable(String, Duration)
    /// The SQLite file's folder could not be created, with the system's reason.
    case folderUnusable(String, String)

    var description: String {
        switch self {
        case .sessionVanished: "the session was deleted while a refresh was in flight"
        case .unknownValue(let type, let raw): "unknown \(type) '\(raw)' in the database"
        case .unreachable(let database, let timeout): "the database \(database) did not answer within \(timeout)"
        case .folderUnusable(let folder, let reason): "cannot create the folder \(folder): \(reason)"
        }
    }
}
