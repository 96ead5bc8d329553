import Foundation

/// Opaque, unguessable identifiers for sessions and prompts.
package enum RandomIdentifier {
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
    /// The same 32 characters in ASCII order, so that the time prefix sorts as its number does.
    private static let orderedAlphabet = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)

    /// `prefix`, 10 digits of the current millisecond, then 128 bits from the kernel's secure generator as 26 base-32
    /// digits. Time-ordered ids put a new row's key at the B-tree's end, on the page the last insert wrote, so a
    /// commit under load writes a handful of pages, not one per row (the UUIDv7 idea). The random bits keep it
    /// unguessable; it reveals when it was made, which the session's answers show anyway.
    package static func makeTimeOrdered(prefix: String, at date: Date = Date()) -> String {
        var milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        var time = [UInt8](repeating: 0, count: 10)
        for index in stride(from: 9, through: 0, by: -1) {
            time[index] = orderedAlphabet[Int(milliseconds & 0x1F)]
            milliseconds >>= 5
        }
        return prefix + String(decoding: time + randomDigits(), as: UTF8.self)
    }

    /// 128 bits from `SystemRandomNumberGenerator` (the kernel's getrandom on Linux).
    package static func random128() -> (high: UInt64, low: UInt64) {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }

    /// 128 random bits as 26 base-32 digits.
    private static func randomDigits() -> [UInt8] {
        let (high, low) = random128()
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
        return digits
    }
}
