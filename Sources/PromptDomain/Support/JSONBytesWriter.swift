/// Writes JSON straight into bytes, for the documents built on every request (the prompts answer, the cache key, the
/// session's JSON columns): `JSONEncoder`'s tree of boxed values made those encodes a fifth of a cache hit's CPU.
///
/// The bytes are `JSONEncoder`'s with `.sortedKeys` and `.withoutEscapingSlashes`, so answers and cache keys do not
/// change: callers write keys sorted; strings and numbers are spelled as Foundation does (`JSONBytesWriterTests`).
package struct JSONBytesWriter {
    package private(set) var bytes: [UInt8] = []
    /// Whether the next key or value follows another one at the same level.
    private var needsComma = false

    package init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    package static func bytes(reservingCapacity capacity: Int, _ write: (inout JSONBytesWriter) -> Void) -> [UInt8] {
        var json = JSONBytesWriter(reservingCapacity: capacity)
        write(&json)
        return json.bytes
    }

    /// The text that `write` writes, for a JSON column.
    package static func text(reservingCapacity capacity: Int, _ write: (inout JSONBytesWriter) -> Void) -> String {
        String(decoding: bytes(reservingCapacity: capacity, write), as: UTF8.self)
    }

    package mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    package mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    package mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// An object's key. Keys are the types' own coding keys: plain ASCII that needs no escaping.
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    package mutating func null() {
        separate()
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
        needsComma = true
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    package mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// Foundation writes a double's `description` without a trailing ".0": 90.0 is `90`, 1e-07 stays `1e-07`.
    /// JSON has no infinity or NaN; validation keeps them out, and `null` is written should one get through.
    package mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    package mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    package mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// `"key":value`, or `"key":null` when there is no value: a fixed shape for the app.
    package mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        string(value)
    }

    /// `"key":value`, or nothing at all when there is no value, as synthesized `Encodable` conformances write.
    package mutating func fieldIfPresent(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    package mutating func fieldIfPresent(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        int(value)
    }

    package mutating func fieldIfPresent(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        key(name)
        double(value)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Copies plain runs whole, escaping quote, backslash and control characters as Foundation does: five short
    /// (`\b \t \n \f \r`), the rest `\u00XX`; DEL and non-ASCII are written as their UTF-8.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            default:
                let hex = Self.hexDigits
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
}
