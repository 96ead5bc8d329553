/// The test's own judge of "the same question", written apart from the production rule (``PromptSignature``) so a
/// router test does not judge the service by the service: two cards repeat when their letters and digits match
/// ignoring case, or when most of their longer words do.
///
/// Longer words are the runs of letters of 4 or more characters, lower-cased and with a final "s" dropped ("boats",
/// "boat"): a crude stand-in for small words and word forms, stricter than the service's, never looser in what it
/// calls a repeat of the same words.
enum PlainRepeats {
    /// Every pair among `texts` that this judge calls the same question.
    static func pairs(in texts: [String]) -> [String] {
        var found: [String] = []
        for (index, first) in texts.enumerated() {
            for second in texts.dropFirst(index + 1) where same(first, second) {
                found.append("\(first) ~ \(second)")
            }
        }
        return found
    }

    static func same(_ first: String, _ second: String) -> Bool {
        if letters(first) == letters(second) { return true }
        let (a, b) = (words(first), words(second))
        guard !a.isEmpty, !b.isEmpty else { return false }
        return Double(a.intersection(b).count) / Double(a.union(b).count) >= 0.75
    }

    private static func letters(_ text: String) -> String {
        String(text.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    private static func words(_ text: String) -> Set<String> {
        let runs = text.lowercased().split { !$0.isLetter }.map(String.init).filter { $0.count >= 4 }
        return Set(runs.map { $0.hasSuffix("s") ? String($0.dropLast()) : $0 })
    }
}
