import Foundation
import PromptDomain
import Testing

/// How many unknown words a good line may hold follows from the dictionary's coverage of good questions: the test
/// works the binomial out itself, term by term, and compares.
@Suite("A dictionary's coverage sets how many unknown words a card may hold")
struct DictionaryCoverageTests {
    /// The chance that a line of `words` words holds `unknown` or more unknown ones, each unknown with `miss`.
    static func chanceOfAtLeast(_ unknown: Int, of words: Int, miss: Double) -> Double {
        func choose(_ n: Int, _ k: Int) -> Double { (0..<k).reduce(1.0) { $0 * Double(n - $1) / Double($1 + 1) } }
        return (unknown...words).reduce(0.0) { $0 + choose(words, $1) * pow(miss, Double($1)) * pow(1 - miss, Double(words - $1)) }
    }

    @Test(
        "The allowance is the most unknown words a good line reaches one time in a hundred or more",
        arguments: [(157, 159), (121, 122), (136, 136), (89, 100), (50, 100), (0, 40)]
    )
    func allowanceIsTheBinomialTail(known: Int, total: Int) {
        let coverage = DictionaryCoverage(known: known, total: total)
        let miss = Double(total - known) / Double(total)
        for words in 1...20 {
            let expected = (0...words).last { $0 == 0 || Self.chanceOfAtLeast($0, of: words, miss: miss) >= 0.01 } ?? 0
            #expect(coverage.allowance(words: words) == expected, "\(known)/\(total), \(words) words")
        }
    }

    @Test("A dictionary that knew every good word allows none; no good questions at all allow none either")
    func fullCoverageIsStrict() {
        #expect(DictionaryCoverage(known: 136, total: 136).allowance(words: 15) == 0)
        #expect(DictionaryCoverage(known: 0, total: 0).allowance(words: 15) == 0)
    }
}
