/// A GBNF grammar (llama.cpp's `grammar`, see its `grammars/README.md`) for the reply an ``OutputConstraint`` asks
/// for, generated from the word rule and the language's script, never written by hand per language.
///
/// Each of the `items` lines is one question: for a language whose words are spaced, a first word, then the rest of
/// the range's words separated by single spaces, each of the script's letters only (no digits, brackets, colons or
/// markup: what the gate would strip or reject), at most 16 of them, an inner apostrophe or hyphen only where the
/// language's examples have one, an optional comma after a word, and the script's question mark; for a language
/// without spaces, a bounded run of the script's letters and its commas. A question opens with one of the
/// language's openers where `prompts/openers/` lists them (a word or two: "What did"), else a capital in a cased
/// script; Spanish opens with "¿". Letters
/// are listed, not "anything but punctuation": a small model fills a negated class with no-break spaces and glues
/// words, and with apostrophes allowed glues them across one ("sea'slice").
package enum PromptGrammar {
    /// The grammar's text.
    package static func gbnf(for constraint: OutputConstraint) -> String {
        let mark = "\"\(constraint.questionMark)\""
        let scripts = LetterScripts.expected(for: constraint.language) ?? ["Latn"]
        let letters = scripts.sorted().compactMap { scriptLetters[$0] }.joined()
        var rules = ["root ::= " + Array(repeating: "item", count: constraint.items).joined(separator: " ")]
        if constraint.spacesWords {
            let range = constraint.wordRule.range
            let opening = constraint.language.language == "es" ? "\"¿\" " : ""
            let cased = scripts == ["Latn"]
            let word = constraint.joinsWords ? "letter{1,16} joined?" : "letter{1,16}"
            // After the opening words, the rest of the range: an opener of two words leaves one fewer to write.
            func rest(after openingWords: Int) -> String {
                "(\",\"? \" \" word){\(max(range.lowerBound - openingWords, 0)),\(max(range.upperBound - openingWords, 0))}"
            }
            let question: String
            if !constraint.openers.isEmpty {
                let byLength = Dictionary(grouping: constraint.openers) { $0.split(separator: " ").count }
                question = byLength.keys.sorted().map { count in
                    "(" + byLength[count, default: []].map { "\"\($0)\"" }.joined(separator: " | ") + ") " + rest(after: count)
                }.joined(separator: " | ")
            } else {
                let first = cased ? "cap " + word.replacing("letter{1,16}", with: "letter{0,15}") : "word"
                question = first + " " + rest(after: 1)
            }
            rules += [
                "item ::= \(opening)(\(question)) \(mark) \"\\n\"",
                "word ::= \(word)",
                "letter ::= [\(letters)]",
            ]
            // "qu'as-tu": an apostrophe or hyphen inside a word, never at its ends, where the language writes them.
            if constraint.joinsWords { rules.append("joined ::= ['’-] letter{1,16}") }
            if cased, constraint.openers.isEmpty { rules.append("cap ::= [A-ZÀ-ÖØ-Þ]") }
        } else {
            let range = constraint.characterRange
            // Thai separates phrases with spaces; Chinese and Japanese use their own commas inside a question. A
            // question opens with a letter, never with one of these.
            let separators = "、，" + (constraint.language.language == "th" ? " " : "")
            rules += [
                "item ::= letter char{\(range.lowerBound - 1),\(range.upperBound - 1)} \(mark) \"\\n\"",
                "char ::= letter | [\(separators)]",
                "letter ::= [\(letters)]",
            ]
        }
        return rules.joined(separator: "\n")
    }

    /// Each script's letters (and the marks that belong to them) as GBNF character-class ranges, by ISO 15924 code.
    package static let scriptLetters: [String: String] = [
        "Latn": "a-zA-ZÀ-ÖØ-öø-ÿ",
        "Arab": "\\u0621-\\u065F\\u066E-\\u06D3",
        "Hang": "가-힣",
        "Hani": "一-鿿",
        "Hira": "ぁ-ゖ",
        "Kana": "ァ-ヺー",
        "Deva": "\\u0900-\\u0963\\u0970-\\u097F",
        "Thai": "\\u0E01-\\u0E4E",
    ]
}
