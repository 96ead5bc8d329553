/// Counts words the way the product spec means them.
///
/// A word is a maximal run of non-whitespace characters containing at least one letter or digit, so
/// "sun-kissed" and "don't" count once and a lone "—", "…" or emoji counts not at all.
public enum WordCounter {
    /// The number of words in `text`.
    public static func count(_ text: some StringProtocol) -> Int {
        text.split(whereSeparator: \.isWhitespace).count { run in
            run.contains { $0.isLetter || $0.isNumber }
        }
    }
}
