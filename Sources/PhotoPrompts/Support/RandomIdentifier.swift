/// Opaque, unguessable identifiers for sessions and prompts.
enum RandomIdentifier {
    /// `prefix` followed by 128 bits from the system's cryptographically secure generator, base-32 encoded.
    static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        // 26 base-32 digits carry 130 bits; every bit drawn is random.
        var digits = ""
        for _ in 0..<26 {
            digits.append(alphabet[Int(generator.next(upperBound: UInt8(32)))])
        }
        return prefix + digits
    }
}
