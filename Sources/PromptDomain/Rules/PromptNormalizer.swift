/// Cleans up one line of model output before it is judged, and derives the key used to spot repeats.
public enum PromptNormalizer {
    /// `text` without list numbering, bullets, a label ("Prompt 1:"), Markdown emphasis, wrapping quotes or a JSON
    /// line's comma, whitespace collapsed; peeled repeatedly, so `1. **"What…?"**` comes out clean.
    public static func normalize(_ text: String) -> String {
        // Bold and underline markers belong to Markdown, never to a prompt, wherever they stand.
        var current = collapseWhitespace(text.replacingIfPresent("**", with: "").replacingIfPresent("__", with: ""))
        while true {
            let peeled = peelOneDecoration(current)
            // Nothing peeled: `current` is collapsed already, so collapsing it again would give it back.
            if peeled == current { return current }
            let collapsed = collapseWhitespace(peeled)
            if collapsed == current { return current }
            current = collapsed
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

    private static let bullets: Set<Character> = ["-", "•", "*", "–", "—", "·", "▪", "‣", ">", "#"]
    private static let quotePairs: [(Character, Character)] = [("\"", "\""), ("“", "”"), ("'", "'"), ("‘", "’"), ("«", "»"), ("`", "`")]

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

    /// Drops "1.", "2)", "(3)", "4:", "5、" or "6 -" at the start, glued to the text or not ("1.What"), but not a number
    /// that begins the sentence ("3 friends…", "1.5 hours…").
    package static func droppingListNumber(_ text: String) -> String? {
        var rest = Substring(text)
        let opened = rest.first == "(" || rest.first == "（"
        if opened { rest = rest.dropFirst() }
        let digits = rest.prefix(while: \.isNumber)
        guard !digits.isEmpty, digits.count <= 3 else { return nil }
        rest = rest.dropFirst(digits.count)
        if !opened, let dash = spacedDash(after: rest) { return String(dash) }
        guard let marker = rest.first, opened ? [")", "）"].contains(marker) : listMarkers.contains(marker) else { return nil }
        rest = rest.dropFirst()
        // "1.5 hours…" and "3:30 in the morning…" are numbers, not list markers.
        guard rest.first?.isNumber != true else { return nil }
        return String(rest)
    }

    private static let listMarkers: Set<Character> = [".", ")", ":", "、", "．", "）", "："]
    private static let dashes: Set<Character> = ["-", "–", "—"]

    /// The text after " - " (or an en or em dash) when `rest` starts with one: "3 - What…?".
    private static func spacedDash(after rest: Substring) -> Substring? {
        let afterSpace = rest.drop(while: \.isWhitespace)
        guard afterSpace.startIndex != rest.startIndex, let dash = afterSpace.first, dashes.contains(dash) else { return nil }
        let after = afterSpace.dropFirst()
        return after.first?.isWhitespace == true ? after : nil
    }

    /// A label's end: a colon, or a dash with a space after it (or "." or ")" after a number: "Prompt 1. What…?").
    private static let labelMarkers: Set<Character> = [":", "：", "-", "–", "—"]
    /// What opens a question besides a capital or a caseless letter: Spanish's inverted marks, any script's quotes.
    private static let questionOpeners: Set<Character> = ["¿", "¡", "\"", "“", "„", "«", "‹", "'", "‘", "‚", "「", "『", "（", "("]

    /// Drops a label a model puts before the question, in any language: "Pregunta de reflexión: ¿Con quién…?",
    /// "質問：…？": a few words before a colon or dash (``isLabel(_:before:)``), then a question (``opensQuestion(_:)``).
    /// "Which mattered most: the view or the company?" is one question and stays.
    package static func droppingLabel(_ text: String) -> String? {
        let head = text.prefix(40)
        let marker = head.indices.first { index in
            labelMarkers.contains(head[index]) || (".)".contains(head[index]) && index > head.startIndex && head[head.index(before: index)].isNumber)
        }
        guard let markerIndex = marker, markerIndex != text.startIndex else { return nil }
        let rest = text[text.index(after: markerIndex)...]
        // A dash, full stop or bracket ends a label only before a space: "Wi-Fi" and "1.5" are words.
        if text[markerIndex] != ":", text[markerIndex] != "：", rest.first?.isWhitespace != true { return nil }
        let question = rest.trimming { $0.isWhitespace }
        guard isLabel(text[..<markerIndex].trimming { $0.isWhitespace }, before: question), opensQuestion(question) else { return nil }
        return String(question)
    }

    /// At most four words, with a letter, not inside a quote, no sentence end of its own, and no longer than the
    /// question: "Qual foi o melhor momento: O pôr do sol?" is a question cut in two, not a label and a question.
    private static func isLabel(_ label: Substring, before question: Substring) -> Bool {
        label.contains(where: \.isLetter) && label.first.map(questionOpeners.contains) == false
            && label.split(whereSeparator: \.isWhitespace).count <= 4 && label.count <= question.count
            && !label.contains { ".!。！".contains($0) || QuestionMarks.endsQuestion(String($0)) }
    }

    /// Whether `text`, past a bullet or emphasis, opens as a question (capital, caseless letter, inverted mark, quote,
    /// list number) and ends with a question mark inside any closing quote, emphasis or comma peeled too.
    private static func opensQuestion(_ text: Substring) -> Bool {
        let question = text.drop { bullets.contains($0) || $0 == "_" || $0.isWhitespace }
        guard let opener = question.first else { return false }
        let opens = questionOpeners.contains(opener) || opener.isUppercase || (opener.isLetter && !opener.isCased)
        return (opens || droppingListNumber(String(question)) != nil)
            && QuestionMarks.endsQuestion(text.trimming { questionOpeners.contains($0) || "”»›’」』）),*_".contains($0) })
    }

    private static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
