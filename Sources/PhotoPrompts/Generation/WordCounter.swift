/// Counts words the way the product spec means them.
///
/// A word is a maximal run of non-whitespace characters containing at least one letter or digit, so
/// "sun-kissed" and "don't" count once and a lone "—", "…" or emoji counts not at all.
public enum WordCounter {
    /// The number of words in `text`.
    public static func count(_ text: some StringProtocol) -> Int {
        if let count = asciiCount(text) { return count }
        return text.split(whereSeparator: \.isWhitespace).count { run in
            run.contains { $0.isLetter || $0.isNumber }
        }
    }

    /// The same count for ASCII text, byte by byte: no grapheme breaking or Unicode property look-ups, which a
    /// profile of the model path showed for every candidate. `nil` when `text` has a non-ASCII byte.
    private static func asciiCount(_ text: some StringProtocol) -> Int? {
        var count = 0
        var inRun = false
        var runHasWordCharacter = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                if inRun, runHasWordCharacter { count += 1 }
                inRun = false
                runHasWordCharacter = false
            } else {
                inRun = true
                runHasWordCharacter = runHasWordCharacter || byte.isASCIILetterOrDigit
            }
        }
        if inRun, runHasWordCharacter { count += 1 }
        return count
    }
}
