import NIOCore

/// What `JSONDecoder` lets pass silently in a request body, found with the field's path: a key written twice in one
/// object (the decoder keeps the first), and a number too large for a `Double` (the decoder's error names no field).
/// Structure only: `JSONDecoder` stays the one reader of values, so the two cannot disagree; malformed JSON is left
/// to the decoder's error.
struct JSONKeyCheck {
    /// A problem and where it is, e.g. `photo.labels` for `{"photo": {"labels": [], "labels": []}}`.
    struct Problem: Equatable {
        var path: String
        var message: String
    }

    /// The first problem in `body`, or `nil` (also for malformed JSON). In place: the decoder makes the one copy.
    static func firstProblem(in body: ByteBuffer) -> Problem? {
        body.withUnsafeReadableBytes { bytes in
            var reader = JSONKeyCheck(bytes: bytes)
            return reader.value(path: "", depth: 0)
        }
    }

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    /// Deeper documents are left to `JSONDecoder`, which has its own limit; recursion here stays shallow.
    private static let maximumDepth = 64

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }

    /// Walks one value; a problem is returned, malformed input stops the walk (as `Problem?.none` from `stop`).
    private mutating func value(path: String, depth: Int) -> Problem? {
        guard depth < Self.maximumDepth else { return stop() }
        skipWhitespace()
        guard let first = current else { return stop() }
        switch first {
        case UInt8(ascii: "{"): return object(path: path, depth: depth)
        case UInt8(ascii: "["): return array(path: path, depth: depth)
        case UInt8(ascii: "\""): return string() == nil ? stop() : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number(path: path)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            while let byte = current, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) { offset += 1 }
            return nil
        default: return stop()
        }
    }

    /// Ends the walk on malformed input: moving past the end makes every caller return at once.
    private mutating func stop() -> Problem? {
        offset = bytes.count + 1
        return nil
    }

    private var stopped: Bool { offset > bytes.count }

    private mutating func object(path: String, depth: Int) -> Problem? {
        var keys: Set<String> = []
        return members(closedBy: UInt8(ascii: "}")) { reader, _ in
            reader.skipWhitespace()
            guard reader.current == UInt8(ascii: "\""), let key = reader.string() else { return reader.stop() }
            let member = path.isEmpty ? key : "\(path).\(key)"
            guard keys.insert(key).inserted else { return Problem(path: member, message: "appears twice; send each field once") }
            reader.skipWhitespace()
            guard reader.current == UInt8(ascii: ":") else { return reader.stop() }
            reader.offset += 1
            return reader.value(path: member, depth: depth + 1)
        }
    }

    private mutating func array(path: String, depth: Int) -> Problem? {
        members(closedBy: UInt8(ascii: "]")) { reader, index in reader.value(path: "\(path)[\(index)]", depth: depth + 1) }
    }

    /// Members or elements from the opening bracket, each read by `member` with its index, comma-separated, to `close`.
    private mutating func members(closedBy close: UInt8, _ member: (inout JSONKeyCheck, Int) -> Problem?) -> Problem? {
        offset += 1
        skipWhitespace()
        if current == close {
            offset += 1
            return nil
        }
        var index = 0
        while !stopped {
            if let problem = member(&self, index) { return problem }
            index += 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case close:
                offset += 1
                return nil
            default: return stop()
            }
        }
        return nil
    }

    /// A number's characters; one that overflows a `Double` (e.g. `1e400`) is a problem at `path`.
    private mutating func number(path: String) -> Problem? {
        let start = offset
        while let byte = current, Self.numberBytes.contains(byte) { offset += 1 }
        guard let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)) else { return nil }
        return value.isFinite ? nil : Problem(path: path.isEmpty ? "body" : path, message: "is too large a number")
    }

    private static let numberBytes = Set("0123456789+-.eE".utf8)

    /// A string at its opening quote, escapes resolved, so `"a"` and `"\u0061"` are the same key.
    private mutating func string() -> String? {
        offset += 1
        var utf8: [UInt8] = []
        while let byte = current {
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = current else { return nil }
                offset += 1
                switch escaped {
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard offset + 4 <= bytes.count,
                        let unit = UInt16(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]), as: UTF8.self), radix: 16)
                    else { return nil }
                    offset += 4
                    // Surrogate halves are kept as their own code units' text: two keys still compare equal exactly
                    // when their escapes are equal, and JSONDecoder judges whether the pair is valid.
                    if let scalar = Unicode.Scalar(unit) {
                        UTF8.encode(scalar) { utf8.append($0) }
                    } else {
                        utf8.append(contentsOf: "\\u\(unit)".utf8)
                    }
                default: utf8.append(escaped)
                }
            default:
                utf8.append(byte)
            }
        }
        return nil
    }
}
