/// A GBNF grammar (llama.cpp's `grammar`, see its `grammars/README.md`) for the reply an ``OutputConstraint`` asks
/// for, generated from the word rule, never written by hand per language.
///
/// Each of the `items` lines is one question: for a language whose words are spaced, a first word, then the rest of
/// the range's words, each of letters only (no digits, brackets, colons or markup: what the gate would strip or
/// reject), at most 16 of them, an optional comma after a word, and the script's question mark; for a language
/// without spaces, a bounded run of characters that are not punctuation of that kind. A cased script's first letter
/// is a capital; Spanish opens with "¿".
enum PromptGrammar {
    /// The grammar's text.
    static func gbnf(for constraint: OutputConstraint) -> String {
        let mark = literal(constraint.questionMark)
        let item: String
        if constraint.spacesWords {
            let range = constraint.wordRule.range
            let opening = constraint.language.language == "es" ? "\"¿\" " : ""
            let first = isCased(constraint.language) ? "cap letter{0,15} joined?" : "word"
            item = "item ::= \(opening)\(first) (\",\"? \" \" word){\(range.lowerBound - 1),\(range.upperBound - 1)} \(mark) \"\\n\""
        } else {
            let range = constraint.characterRange
            item = "item ::= char{\(range.lowerBound),\(range.upperBound)} \(mark) \"\\n\""
        }
        return [
            "root ::= " + Array(repeating: "item", count: constraint.items).joined(separator: " "),
            item,
            // "couldn't", "qu'avez-vous": an apostrophe or hyphen inside a word, never at its ends.
            "word ::= letter{1,16} joined?",
            "joined ::= ['’-] letter{1,16}",
            // Letters in any script: everything but spaces, digits and the punctuation a question line must not hold.
            #"letter ::= [^ \t\n0-9?？؟¿!！.,，、。:：;；"'‘’“”«»()（）\[\]{}<>*#_/\\|=+@&%$~`^-]"#,
            #"cap ::= [A-ZÀ-ÖØ-ÞĀ-ſ]"#,
            #"char ::= [^ \t\n0-9?？؟!！.:：;；"“”()（）\[\]{}<>*#_/\\|=+@&%$~`^-]"#,
        ].joined(separator: "\n")
    }

    /// Whether the language's script has capitals that start a sentence.
    private static func isCased(_ language: LanguageTag) -> Bool {
        LetterScripts.expected(for: language) == ["Latn"]
    }

    private static func literal(_ text: String) -> String {
        "\"\(text)\""
    }
}
