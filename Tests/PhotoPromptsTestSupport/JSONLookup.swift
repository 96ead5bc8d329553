import Foundation

/// Reading nested values out of `JSONSerialization` results in tests: `json["live", "variants", 0, "version"]`.
package struct JSONLookup: @unchecked Sendable {
    package let value: Any?

    package init(_ value: Any?) {
        self.value = value
    }

    package subscript(_ path: JSONPathStep...) -> JSONLookup {
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

    package var string: String? { value as? String }
    package var int: Int? { value as? Int }
    package var double: Double? { value as? Double }
    package var array: [Any] { value as? [Any] ?? [] }
    package var isNull: Bool { value == nil || value is NSNull }
}

/// One step into a JSON document: an object key or an array index.
package enum JSONPathStep: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)

    package init(stringLiteral value: String) { self = .key(value) }
    package init(integerLiteral value: Int) { self = .index(value) }
}

extension ServiceClient.Reply {
    /// The body as a ``JSONLookup``.
    package var lookup: JSONLookup {
        JSONLookup(try? JSONSerialization.jsonObject(with: Data(body)))
    }
}
