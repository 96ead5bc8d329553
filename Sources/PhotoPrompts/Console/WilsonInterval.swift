/// A 95 % interval for a share: Wilson's score interval, which stays inside 0…1 and behaves with few trials or a
/// share near 0 or 1, where the normal approximation does not.
struct WilsonInterval: Encodable, Sendable, Equatable {
    var low: Double
    var high: Double

    /// The z for 95 %.
    static let z = 1.959964

    func overlaps(_ other: WilsonInterval) -> Bool { low <= other.high && other.low <= high }
}

extension WilsonInterval {
    /// `nil` without trials.
    init?(successes: Int, trials: Int) {
        guard trials > 0 else { return nil }
        let n = Double(trials)
        let share = Double(successes) / n
        let z2 = Self.z * Self.z
        let centre = (share + z2 / (2 * n)) / (1 + z2 / n)
        let half = Self.z / (1 + z2 / n) * ((share * (1 - share) / n + z2 / (4 * n * n)).squareRoot())
        low = max(0, centre - half)
        high = min(1, centre + half)
    }
}
