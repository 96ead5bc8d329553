/// Finds the candidate prompts in a model's reply, whatever it is dressed in: prose ("Here are six questions:"),
/// code fences, JSON of many shapes, Markdown lists and emphasis. A preamble or sign-off is dropped, so it is never
/// judged, counted as a rejection or reported back to the model as a mistake. In order:
///
/// 1. JSON, fenced or anywhere: every string listed (``ReplyExtractor/strings(in:)``), commas and quotes repaired.
/// 2. A Markdown list: its numbered or bulleted items, and nothing around them.
/// 3. Plain lines: each but headings ("…:"); when most lines are questions, only the questions.
///
/// Cleaning a candidate is ``PromptNormalizer``'s part; ``PromptValidator`` judges.
public enum ReplyExtractor {
    /// The candidates in `reply`, in the order the model gave them.
    public static func candidates(in reply: String) -> [String] {
        let text = reply.replacingIfPresent("\r\n", with: "\n").replacingIfPresent("\r", with: "\n")
        let blocks = fencedBlocks(in: text)
        for block in blocks {
            if let strings = strings(in: block) { return strings }
        }
        if let strings = strings(in: text) { return strings }
        return lineCandidates(in: blocks.isEmpty ? text : blocks.joined(separator: "\n"))
    }

    /// The contents of every ```-fenced block, in order.
    package static func fencedBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingPrefix(while: \.isWhitespace).hasPrefix("```") {
                if let lines = current {
                    blocks.append(lines.joined(separator: "\n"))
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        // A block the model never closed (a reply cut at max_tokens) still holds its complete lines.
        if let lines = current, !lines.isEmpty { blocks.append(lines.joined(separator: "\n")) }
        return blocks
    }

    /// Lines of a reply that is not JSON.
    package static func lineCandidates(in text: String) -> [String] {
        let lines = text.split(separator: "\n").map { $0.trimming(while: \.isWhitespace) }.filter { line in
            line.contains { $0.isLetter || $0.isNumber }
        }
        let items = lines.filter(isListItem)
        if !items.isEmpty { return lines.filter { isListItem($0) || isLabelled($0) }.map(String.init) }
        let sentences = lines.filter { !isHeading($0) }
        let questions = sentences.filter(endsWithQuestionMark)
        // Mostly questions: the other lines are the model talking to us ("I hope these help!").
        let chosen = questions.count * 2 >= sentences.count && !questions.isEmpty ? questions : sentences
        return chosen.map(String.init)
    }

    /// "1. …", "2) …", "(3) …", "- …", "* …", "• …": a line the model wrote as an item of a list.
    package static func isListItem(_ line: Substring) -> Bool {
        guard let first = line.first else { return false }
        if "-•–·▪‣".contains(first) { return true }
        if first == "*" || first == "+" { return line.dropFirst().first == " " }
        // Numbered as the normalizer peels it ("1.5 hours…" is a sentence), emphasis ("**1.** …") left out first.
        return PromptNormalizer.droppingListNumber(withoutEmphasis(line)) != nil
    }

    /// "Prompt 5 - …", "**Question 3:** …", "Pregunta 2: …": a label, then text. Among numbered items it is an item
    /// too, which the normalizer cleans; a bare "Prompt:" introduces what follows, like a heading, and is not.
    package static func isLabelled(_ line: Substring) -> Bool {
        PromptNormalizer.droppingLabel(withoutEmphasis(line))?.contains(where: \.isLetter) == true
    }

    /// `line` without Markdown's bold markers anywhere and its italic ones at the start: "**1.** …", "*Prompt:* …".
    private static func withoutEmphasis(_ line: Substring) -> String {
        String(String(line).replacingIfPresent("**", with: "").replacingIfPresent("__", with: "").drop { $0 == "*" || $0 == "_" })
    }

    /// "Here are six questions:" introduces what follows; it is not a prompt.
    package static func isHeading(_ line: Substring) -> Bool {
        line.trimming { $0 == "*" || $0 == "_" || $0.isWhitespace }.hasSuffix(":")
    }

    package static func endsWithQuestionMark(_ line: Substring) -> Bool {
        let core = line.trimming { "*_\"'“”‘’«»`,. ".contains($0) }
        return QuestionMarks.endsQuestion(core)
    }
}

extension Substring {
    package func trimming(while predicate: (Character) -> Bool) -> Substring {
        var slice = drop(while: predicate)
        while let last = slice.last, predicate(last) { slice = slice.dropLast() }
        return slice
    }
}
