/// A GBNF grammar (llama.cpp's `grammar`) for the reply an ``OutputConstraint`` asks for, generated from the word
/// rule and the language's script, never written by hand per language.
///
/// Each of the `items` lines is one question. Where words are spaced: the range's words, single-spaced, each of at
/// most 16 of the script's letters (no digits, brackets, colons or markup the gate would strip or reject), an inner
/// apostrophe or hyphen where the language's examples have one, an optional comma after a word, the question mark.
/// Elsewhere: a bounded run of letters and the script's commas. A question opens with a listed opener
/// (`prompts/openers/`), else a capital in a cased script; Spanish's with "¿". Letters are listed, not "anything but
/// punctuation": a small model fills a negated class with no-break spaces and glues words ("sea'slice").
package enum PromptGrammar {
    package static func gbnf(for constraint: OutputConstraint) -> String {
        let mark = "\"\(constraint.questionMark)\""
        let scripts = LetterScripts.expected(for: constraint.language) ?? ["Latn"]
        let ranges = scripts.sorted().flatMap { scriptLetters[$0] ?? [] }
        let letters = ranges.map { range in
            func written(_ value: UInt32) -> String {
                let hex = String(value, radix: 16, uppercase: true)
                return value < 0x100 ? String(UnicodeScalar(UInt8(value))) : "\\u" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex
            }
            return range.count == 1 ? written(range.lowerBound) : written(range.lowerBound) + "-" + written(range.upperBound)
        }.joined()
        // The details the grammar can write for a naming line: words of the script's letters, single-spaced.
        let details = constraint.details.filter { detail in
            constraint.namingLines > 0
                && detail.split(separator: " ", omittingEmptySubsequences: false).allSatisfy { word in
                    !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in ranges.contains { $0.contains(scalar.value) } }
                }
        }
        let naming = details.isEmpty ? 0 : min(constraint.namingLines, constraint.items)
        let lines = Array(repeating: "item", count: constraint.items - naming) + Array(repeating: "naming", count: naming)
        var rules = ["root ::= " + lines.joined(separator: " ")]
        // Each detail by length (words, or characters where unspaced), so a naming line keeps to the range.
        let byLength = Dictionary(grouping: details) { constraint.spacesWords ? $0.split(separator: " ").count : $0.count }
        rules += byLength.keys.sorted().map { length in
            "detail\(length) ::= " + byLength[length, default: []].map { "\"\($0)\"" }.joined(separator: " | ")
        }
        if constraint.spacesWords {
            let range = constraint.wordRule.range
            let opening = constraint.language.language == "es" ? "\"¿\" " : ""
            let cased = scripts == ["Latn"]
            let word = constraint.joinsWords ? "letter{1,16} joined?" : "letter{1,16}"
            // After the opening words, the rest of the range: an opener of two words leaves one fewer to write.
            func rest(after openingWords: Int) -> String {
                "(\",\"? \" \" word){\(max(range.lowerBound - openingWords, 0)),\(max(range.upperBound - openingWords, 0))}"
            }
            // After the opening words, up to four more, a detail, and the rest of the range.
            func namingRest(after openingWords: Int) -> String {
                let ways = byLength.keys.sorted().flatMap { length -> [String] in
                    (0...4).filter { openingWords + $0 + length <= range.upperBound }.map { (before: Int) -> String in
                        let lead = before == 0 ? "" : "(\",\"? \" \" word){\(before)} "
                        return lead + "\" \" detail\(length) " + rest(after: openingWords + before + length)
                    }
                }
                return "(" + ways.joined(separator: " | ") + ")"
            }
            func question(_ body: (Int) -> String) -> String {
                guard constraint.openers.isEmpty else {
                    let byLength = Dictionary(grouping: constraint.openers) { $0.split(separator: " ").count }
                    return byLength.keys.sorted().map { count in
                        "(" + byLength[count, default: []].map { "\"\($0)\"" }.joined(separator: " | ") + ") " + body(count)
                    }.joined(separator: " | ")
                }
                return (cased ? "cap " + word.replacing("letter{1,16}", with: "letter{0,15}") : "word") + " " + body(1)
            }
            rules += [
                "item ::= \(opening)(\(question(rest))) \(mark) \"\\n\"",
                "word ::= \(word)",
                "letter ::= [\(letters)]",
            ]
            if naming > 0 { rules.append("naming ::= \(opening)(\(question(namingRest))) \(mark) \"\\n\"") }
            // "qu'as-tu": an apostrophe or hyphen inside a word, never at its ends, where the language writes them.
            if constraint.joinsWords { rules.append("joined ::= ['’-] letter{1,16}") }
            if cased, constraint.openers.isEmpty { rules.append("cap ::= [A-ZÀ-ÖØ-Þ]") }
        } else {
            let range = constraint.characterRange
            // Thai spaces phrases, Chinese and Japanese use their own commas; a question opens with a letter.
            let separators = "、，" + (constraint.language.language == "th" ? " " : "")
            rules += [
                "item ::= letter char{\(range.lowerBound - 1),\(range.upperBound - 1)} \(mark) \"\\n\"",
                "char ::= letter | [\(separators)]",
                "letter ::= [\(letters)]",
            ]
            if naming > 0 {
                // A detail opens the line or follows up to four characters, and the rest keeps the line in range.
                let lines = byLength.keys.sorted().flatMap { length -> [String] in
                    (0...4).filter { $0 + length <= range.upperBound }.map { (before: Int) -> String in
                        let rest = "char{\(max(range.lowerBound - before - length, 0)),\(range.upperBound - before - length)}"
                        return (before == 0 ? "" : "letter char{\(before - 1)} ") + "detail\(length) " + rest
                    }
                }
                rules.append("naming ::= (" + lines.joined(separator: " | ") + ") \(mark) \"\\n\"")
            }
        }
        return rules.joined(separator: "\n")
    }

    /// Each script's letters (and the marks that belong to them), by ISO 15924 code: the grammar's character class,
    /// and what a detail must be written in to be named by a line.
    package static let scriptLetters: [String: [ClosedRange<UInt32>]] = [
        "Latn": [0x61...0x7A, 0x41...0x5A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF],
        "Arab": [0x0621...0x065F, 0x066E...0x06D3],
        "Hang": [0xAC00...0xD7A3],
        "Hani": [0x4E00...0x9FFF],
        "Hira": [0x3041...0x3096],
        "Kana": [0x30A1...0x30FA, 0x30FC...0x30FC],
        "Deva": [0x0900...0x0963, 0x0970...0x097F],
        "Thai": [0x0E01...0x0E4E],
    ]
}
