/// Opaque, unguessable identifiers for sessions and prompts.
enum RandomIdentifier {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// `prefix` followed by 128 bits from the system's cryptographically secure generator, as 26 base-32 digits.
    static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        // Two draws (one getrandom each) instead of one per digit: ids are made several times per request.
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var digits = [UInt8]()
        digits.reserveCapacity(26)
        for index in 0..<26 {
            // Digits 0–12 take 5 bits each from `high` (65 bits needed: the 13th takes its last bit from `low`).
            let bitOffset = index * 5
            let value: UInt64
            if bitOffset + 5 <= 64 {
                value = (high >> UInt64(bitOffset)) & 0x1F
            } else if bitOffset < 64 {
                let fromHigh = high >> UInt64(bitOffset)
                value = (fromHigh | (low << UInt64(64 - bitOffset))) & 0x1F
            } else {
                value = (low >> UInt64(bitOffset - 64)) & 0x1F
            }
            digits.append(alphabet[Int(value)])
        }
        return prefix + String(decoding: digits, as: UTF8.self)
    }
}
