import Foundation

/// Searching a string's UTF-8 for byte patterns worked out once (chatter phrases, question words) by a plain scan:
/// `String.contains(_:)` (through `NSString`) and the generic `Collection.contains(_:)` (metadata on every call) each
/// cost more than the rest of the gate together (docs/BENCHMARKS.md).
package enum UTF8Search {
    package static func containsAny(of patterns: [[UInt8]], in text: String) -> Bool {
        var text = text
        return text.withUTF8 { haystack in
            patterns.contains { pattern in pattern.withUnsafeBufferPointer { occurs($0, in: haystack) } }
        }
    }

    private static func occurs(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, let needleBase = needle.baseAddress, let base = haystack.baseAddress,
            needle.count <= haystack.count
        else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            if memcmp(base + start, needleBase, needle.count) == 0 { return true }
        }
        return false
    }
}
