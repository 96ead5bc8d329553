/// What a `DecodingError` says, in the terms of whoever fixes the JSON: the field's path (`photo.labels[2]`) and
/// what is wrong with it. A request's 400 and a broken copy file's error name the field the same way.
public struct DecodingProblem: Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the field at fault; `body` for the document itself.
    public var field: String
    public var problem: String

    public init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            (field, problem) = (Self.path(context.codingPath), "must be \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            (field, problem) = (Self.path(context.codingPath), "must be \(Self.describe(type)), not null")
        case .keyNotFound(let key, let context):
            (field, problem) = (Self.path(context.codingPath + [key]), "is required")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            (field, problem) = ("body", "is not valid JSON")
        case .dataCorrupted(let context):
            (field, problem) = (Self.path(context.codingPath), "is out of range or malformed")
        @unknown default:
            (field, problem) = ("body", "could not be read")
        }
    }

    /// "photo.labels[2]: must be a string"
    public var description: String { "\(field): \(problem)" }

    /// A coding path as JSON writes it: `photo.labels[2]`, `photo.taken_at` for Swift's `takenAt` (a dictionary's own
    /// keys would be snake-cased too; no document read with this has one with a capital).
    public static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "body" }
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                let name = SnakeCaseJSON.snakeCase(key.stringValue)
                path += path.isEmpty ? name : ".\(name)"
            }
        }
        return path
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
