/// Cleans up one line of model output before it is judged, and derives the key used to spot repeats.
public enum PromptNormalizer {
    /// `text` without list numbering, bullets, "Prompt 1:" labels, Markdown emphasis, wrapping quotes or the comma
    /// of a JSON line, whitespace collapsed.
    ///
    /// Decorations are peeled repeatedly, so `1. **"What…?"**` and `- Prompt 2: What…?` both come out clean.
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

    /// Words that make up a label before the question, in the shipped languages: "Question 3:", "Reflection
    /// Question:", "Prompt:", "Pregunta 2:", "質問1：". Compared lower-cased, with any number after them dropped.
    private static let labelWords: Set<String> = [
        "prompt", "prompts", "question", "questions", "reflection", "reflective", "journal", "journaling", "writing", "q",
        "pregunta", "reflexión", "reflexion", "pergunta", "reflexão", "frage", "reflexionsfrage", "schreibimpuls",
        "réflexion", "domanda", "riflessione", "vraag", "reflectie", "schrijfvraag",
        "質問", "问题", "問題", "提示", "질문", "سؤال", "प्रश्न", "सवाल", "คำถาม",
    ]
    private static let labelMarkers: Set<Character> = [":", "：", "-", "–", "—", ")", "."]

    /// Drops a label made only of label words and a number, before a colon, dash or similar mark: "Reflection
    /// Question:", "Question 2 -", "Pregunta 2:". "What's the question: …" is a sentence, not a label, and stays.
    package static func droppingLabel(_ text: String) -> String? {
        guard let markerIndex = text.prefix(40).firstIndex(where: labelMarkers.contains), markerIndex != text.startIndex else { return nil }
        let words = text[..<markerIndex].split(whereSeparator: \.isWhitespace)
        guard (1...4).contains(words.count) else { return nil }
        let isLabel = words.allSatisfy { word in
            let letters = word.lowercased().filter { !$0.isNumber && $0 != "#" }
            return letters.isEmpty ? word.allSatisfy(\.isNumber) : labelWords.contains(letters)
        }
        guard isLabel, words.contains(where: { !$0.allSatisfy(\.isNumber) }) else { return nil }
        return String(text[text.index(after: markerIndex)...])
    }

    private static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
