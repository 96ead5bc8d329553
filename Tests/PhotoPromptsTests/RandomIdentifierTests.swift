import PromptDomain
import Testing

@testable import PhotoPrompts

@Suite("Random ids: 128 bits from the kernel, unique and unbiased")
struct RandomIdentifierTests {
    @Test("Ids made at once by many tasks are all different")
    func distinctUnderConcurrency() async {
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<5000).map { _ in RandomIdentifier.makeTimeOrdered(prefix: "s_") } }
            }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(ids.count == 40000)
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.map { $0.suffix(26) }).count == ids.count, "the random part alone is unique too")
    }

    @Test("Every one of the 128 bits is set about half the time")
    func unbiasedBits() {
        let draws = 20000
        var ones = [Int](repeating: 0, count: 128)
        for _ in 0..<draws {
            let (high, low) = RandomIdentifier.random128()
            for bit in 0..<64 {
                ones[bit] += Int((high >> UInt64(bit)) & 1)
                ones[64 + bit] += Int((low >> UInt64(bit)) & 1)
            }
        }
        // For a fair bit, 20,000 draws fall within ±5 % of half with a chance of failure far below 1e-40.
        for (bit, count) in ones.enumerated() {
            #expect((9000...11000).contains(count), "bit \(bit) was set \(count) times in \(draws)")
        }
    }
}
