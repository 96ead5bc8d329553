import CICU

/// ICU's transliterators (`Sources/CICU`): "Hant-Hans" writes Traditional Chinese characters in their Simplified
/// form, "Hans-Hant" the other way.
package enum Transliteration {
    /// `text` as ICU's transliterator `id` rewrites it; nil if ICU cannot open that transliterator.
    package static func apply(_ id: String, to text: String) -> String? {
        var units = Array(text.utf16)
        let capacity = units.count * 2 + 16
        units += [UInt16](repeating: 0, count: capacity - units.count)
        let length = units.withUnsafeMutableBufferPointer {
            photoprompts_icu_transliterate(id, $0.baseAddress, Int32(text.utf16.count), Int32(capacity))
        }
        guard length >= 0 else { return nil }
        return String(decoding: units.prefix(Int(length)), as: UTF16.self)
    }
}
