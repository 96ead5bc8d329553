/// A JSON document read by ``ScannedJSON/parse(_:)``: a small, strict reader for request bodies that Foundation's
/// `JSONDecoder` would accept, so that the common request skips the decoder's cost.
///
/// It gives up (returns `nil`) on anything it is not sure Foundation reads the same way: invalid JSON, duplicate
/// keys, numbers that do not fit a `Double`, invalid UTF-8, lone surrogates, deep nesting. The caller then decodes
/// with `JSONDecoder`, whose errors name the field at fault. Being fast is never allowed to change an answer.
indirect enum ScannedJSON {
    case object([String: ScannedJSON])
    case array([ScannedJSON])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The document in `bytes`, or `nil` when it is not plain, valid JSON.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> ScannedJSON? {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        return reader.offset == bytes.count ? value : nil
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        /// Deeper documents are left to Foundation, which has its own limit; recursion here stays shallow.
        static let maximumDepth = 32

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
        }

        mutating func consume(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard offset + count <= bytes.count else { return false }
            for index in 0..<count where bytes[offset + index] != literal.utf8Start[index] { return false }
            offset += count
            return true
        }

        mutating func value(depth: Int) -> ScannedJSON? {
            guard depth < Self.maximumDepth else { return nil }
            skipWhitespace()
            guard let first = current else { return nil }
            switch first {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(ScannedJSON.string)
            case UInt8(ascii: "t"): return consume("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return consume("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return consume("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number().map(ScannedJSON.number)
            default: return nil
            }
        }

        mutating func object(depth: Int) -> ScannedJSON? {
            offset += 1
            var members: [String: ScannedJSON] = [:]
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return nil }
                offset += 1
                // Which of two equal keys Foundation keeps is its own business: leave such bodies to it.
                guard let value = value(depth: depth + 1), members.updateValue(value, forKey: key) == nil else { return nil }
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "}"):
                    offset += 1
                    return .object(members)
                default: return nil
                }
            }
        }

        mutating func array(depth: Int) -> ScannedJSON? {
            offset += 1
            var elements: [ScannedJSON] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): offset += 1
                case UInt8(ascii: "]"):
                    offset += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        /// RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and a finite `Double`.
        mutating func number() -> Double? {
            let start = offset
            if current == UInt8(ascii: "-") { offset += 1 }
            if current == UInt8(ascii: "0") {
                offset += 1
            } else {
                guard digits() else { return nil }
            }
            if current == UInt8(ascii: ".") {
                offset += 1
                guard digits() else { return nil }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                guard digits() else { return nil }
            }
            let literal = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
            guard let value = Double(String(decoding: literal, as: UTF8.self)), value.isFinite else { return nil }
            // Left to Foundation: numbers too small for a `Double` (1e-400), which it refuses and `Double(_:)`
            // rounds to zero or to a subnormal, and zeros with an exponent, some of which it refuses ("0e2",
            // "0.00e01") and some not ("0.0e1").
            let mantissa = literal.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            let writesZero = !mantissa.contains { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }
            guard !writesZero || mantissa.count == literal.count else { return nil }
            guard writesZero == (value == 0), value == 0 || value.magnitude >= .leastNormalMagnitude else { return nil }
            return value
        }

        /// One or more digits.
        mutating func digits() -> Bool {
            let start = offset
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
            return offset > start
        }

        /// A string at the opening quote, its escapes resolved. Control characters must be escaped in JSON.
        mutating func string() -> String? {
            offset += 1
            let start = offset
            // The common case: no escapes, so the bytes between the quotes are the string.
            while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                guard byte >= 0x20 else { return nil }
                offset += 1
            }
            guard let stop = current else { return nil }
            let plain = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
            if stop == UInt8(ascii: "\"") {
                offset += 1
                return String(validating: plain, as: UTF8.self)
            }
            var utf8 = Array(plain)
            while let byte = current {
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard appendEscape(to: &utf8) else { return nil }
                case ..<0x20:
                    return nil
                default:
                    utf8.append(byte)
                }
            }
            return nil
        }

        /// The escape after a backslash, as UTF-8.
        mutating func appendEscape(to utf8: inout [UInt8]) -> Bool {
            guard let byte = current else { return false }
            offset += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hexUnit() else { return false }
                var scalar = Unicode.Scalar(unit)
                if (0xD800..<0xDC00).contains(unit) {
                    // A high surrogate must be followed by an escaped low one.
                    guard consume("\\u"), let low = hexUnit(), (0xDC00..<0xE000).contains(low) else { return false }
                    scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
                }
                guard let scalar else { return false }
                UTF8.encode(scalar) { utf8.append($0) }
            default: return false
            }
            return true
        }

        /// Four hex digits.
        mutating func hexUnit() -> UInt16? {
            guard offset + 4 <= bytes.count else { return nil }
            var unit: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                unit = unit << 4 | UInt16(digit)
                offset += 1
            }
            return unit
        }
    }
}
