/// Cleans up one line of model output before it is judged, and derives the key used to spot repeats.
public enum PromptNormalizer {
    /// `text` without list numbering, bullets, "Prompt 1:" labels, Markdown emphasis, wrapping quotes or the comma
    /// of a JSON line, whitespace collapsed.
    ///
    /// Decorations are peeled repeatedly, so `1. **"What…?"**` and `- Prompt 2: What…?` both come out clean.
    public static func normalize(_ text: String) -> String {
        // Bold and underline markers belong to Markdown, never to a prompt, wherever they stand.
        var current = collapseWhitespace(text.replacing("**", with: "").replacing("__", with: ""))
        while true {
            let peeled = collapseWhitespace(peelOneDecoration(current))
            if peeled == current { return current }
            current = peeled
        }
    }

    /// A key equal for two prompts that differ only in case, punctuation or spacing.
    public static func repeatKey(_ text: String) -> String {
        var key = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            guard isWordPart(scalar.properties) else {
                pendingSpace = !key.isEmpty
                continue
            }
            if pendingSpace {
                key.append(" ")
                pendingSpace = false
            }
            key.append(scalar)
        }
        // Lower-casing the whole key maps each scalar as `lowercaseMapping` would, in one pass.
        return String(key).lowercased()
    }

    /// Letters, numbers and the marks that belong to them. Thai tone marks and the Devanagari virama are not
    /// Alphabetic, yet two words that differ only in them are different words.
    private static func isWordPart(_ properties: Unicode.Scalar.Properties) -> Bool {
        if properties.isAlphabetic || properties.numericType != nil { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark: return true
        default: return false
        }
    }

    private static let bullets: Set<Character> = ["-", "•", "*", "–", "—", "·", "▪", "‣", ">"]
    private static let quotePairs: [(Character, Character)] = [("\"", "\""), ("“", "”"), ("'", "'"), ("‘", "’"), ("«", "»"), ("`", "`")]
    private static let labelWords = ["prompt", "question"]

    private static func peelOneDecoration(_ text: String) -> String {
        guard let first = text.first, let last = text.last else { return text }
        // `*What…?*` is italic, not a bullet; `"What…?",` is a line of a JSON array.
        if text.count > 2, first == last, first == "*" || first == "_" {
            return String(text.dropFirst().dropLast())
        }
        if last == "," {
            return String(text.dropLast())
        }
        if bullets.contains(first) {
            return String(text.dropFirst())
        }
        if let withoutNumber = droppingListNumber(text) {
            return withoutNumber
        }
        if let withoutLabel = droppingLabel(text) {
            return withoutLabel
        }
        if text.count >= 2, quotePairs.contains(where: { $0.0 == first && $0.1 == last }) {
            return String(text.dropFirst().dropLast())
        }
        return text
    }

    /// Drops "1.", "2)", "(3)" or "4:" at the start, but not a number that begins the sentence ("3 friends…").
    static func droppingListNumber(_ text: String) -> String? {
        var rest = Substring(text)
        let opened = rest.first == "("
        if opened { rest = rest.dropFirst() }
        let digits = rest.prefix(while: \.isNumber)
        guard !digits.isEmpty, digits.count <= 3 else { return nil }
        rest = rest.dropFirst(digits.count)
        guard let marker = rest.first, opened ? marker == ")" : [".", ")", ":"].contains(marker) else { return nil }
        rest = rest.dropFirst()
        // "1.5 hours…" is a number, not a list marker.
        guard rest.isEmpty || rest.first!.isWhitespace else { return nil }
        return String(rest)
    }

    /// Drops "Prompt 1:", "Question 2 -" and the like.
    private static func droppingLabel(_ text: String) -> String? {
        let lowered = text.lowercased()
        guard let word = labelWords.first(where: { lowered.hasPrefix($0) }) else { return nil }
        var rest = text.dropFirst(word.count)
        rest = rest.drop(while: \.isWhitespace)
        rest = rest.drop(while: \.isNumber)
        rest = rest.drop(while: \.isWhitespace)
        guard let marker = rest.first, [":", "-", "–", "—", ")", "."].contains(marker) else { return nil }
        return String(rest.dropFirst())
    }

    private static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
