import Foundation

/// Reading nested values out of `JSONSerialization` results in tests: `json["live", "variants", 0, "version"]`.
struct JSONLookup: @unchecked Sendable {
    let value: Any?

    init(_ value: Any?) {
        self.value = value
    }

    subscript(_ path: JSONPathStep...) -> JSONLookup {
        var current = value
        for step in path {
            switch step {
            case .key(let key):
                current = (current as? [String: Any])?[key]
            case .index(let index):
                let array = current as? [Any] ?? []
                current = array.indices.contains(index) ? array[index] : nil
            }
        }
        return JSONLookup(current)
    }

    var string: String? { value as? String }
    var int: Int? { value as? Int }
    var double: Double? { value as? Double }
    var array: [Any] { value as? [Any] ?? [] }
    var isNull: Bool { value == nil || value is NSNull }
}

/// One step into a JSON document: an object key or an array index.
enum JSONPathStep: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)

    init(stringLiteral value: String) { self = .key(value) }
    init(integerLiteral value: Int) { self = .index(value) }
}

extension ServiceClient.Reply {
    /// The body as a ``JSONLookup``.
    var lookup: JSONLookup {
        JSONLookup(try? JSONSerialization.jsonObject(with: Data(body)))
    }
}
