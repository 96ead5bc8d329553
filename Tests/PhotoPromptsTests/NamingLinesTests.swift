import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

/// `naming_lines`: the grammar's last lines each name one of the photo's labels or places, within the word rule.
@Suite("Lines that name the photo: the grammar writes a detail into the last lines")
struct NamingLinesTests {
    static let photo = PhotoMetadata(
        location: .init(name: "Praia da Rocha", country: "Portugal"),
        labels: ["dog", "hospital bed", "St Thomas' Hospital"]
    )

    static func grammar(_ locale: String, naming: Int = 3, openers: [String] = [], photo: PhotoMetadata = photo) -> String {
        let language = LanguageTag(locale: locale)
        let details = [photo.location?.name, photo.location?.country].compactMap(\.self) + (photo.labels ?? [])
        let constraint = OutputConstraint(
            items: 8,
            language: language,
            wordRule: .for(language),
            openers: openers,
            details: details,
            namingLines: naming
        )
        return PromptGrammar.gbnf(for: constraint)
    }

    @Test("The last naming_lines lines are the naming rule; without a detail the grammar can write, none are")
    func rootOrder() {
        #expect(Self.grammar("en").hasPrefix("root ::= item item item item item naming naming naming\n"))
        #expect(Self.grammar("en", naming: 0).hasPrefix("root ::= item item item item item item item item\n"))
        #expect(!Self.grammar("en", naming: 0).contains("detail"), "no line names the photo: its words stay out of the grammar")
        #expect(Self.grammar("en", photo: PhotoMetadata(labels: ["Ünïcode™"])).hasPrefix("root ::= item item item item item item item item\n"))
    }

    @Test(
        "An English naming line: a detail as the photo writes it, after at most four words, 8 to 15 words in all",
        arguments: [
            ("What was the dog doing when you took this photo that day?", true),
            ("What did Praia da Rocha feel like on your first morning there?", true),
            ("Do you remember the hospital bed and the quiet room there?", true),
            ("Who was with you in Portugal, and what did you talk about?", true),
            ("How did you feel about that long walk on the beach today?", false),  // no detail
            ("How did you and all your friends feel about the dog?", false),  // the detail after eight words
            ("What did the dog do?", false),  // too short
            ("What did the dog do on that long and sunny day at the old harbor wall?", false),  // 16 words
            ("What did St Thomas' Hospital feel like on your first night there?", false),  // not in the grammar's letters
            ("What did the dogs do when you arrived at the beach that day?", false),  // not as the photo writes it
        ]
    )
    func englishLines(line: String, named: Bool) throws {
        let pattern = try GrammarPattern(Self.grammar("en"), rule: "naming")
        #expect(pattern.matches(line + "\n") == named, "\(line)")
        // The free lines still take any question of the range.
        let free = try GrammarPattern(Self.grammar("en"), rule: "item")
        #expect(free.matches(line + "\n") == ((8...15).contains(line.split(separator: " ").count) && !line.contains("'")), "\(line)")
    }

    @Test("With openers, a naming line opens with one of them as every line does")
    func openers() throws {
        let pattern = try GrammarPattern(Self.grammar("en", openers: ["What did", "How did"]), rule: "naming")
        #expect(pattern.matches("What did the dog do when you came home that evening?\n"))
        #expect(pattern.matches("How did you feel about the dog on that long summer walk?\n"))
        #expect(!pattern.matches("Where did the dog go when you came home that evening?\n"))
    }

    @Test("Spanish opens with ¿; Japanese counts characters, and names a detail written in its own script")
    func otherLanguages() throws {
        let spanish = try GrammarPattern(Self.grammar("es", photo: PhotoMetadata(labels: ["perro"])), rule: "naming")
        #expect(spanish.matches("¿Qué recuerdas del perro en aquella tarde de verano?\n"))
        #expect(!spanish.matches("¿Qué recuerdas de aquella tarde de verano junto al mar?\n"))
        let japanese = try GrammarPattern(Self.grammar("ja", photo: PhotoMetadata(labels: ["犬", "dog"])), rule: "naming")
        #expect(japanese.matches("犬と一緒に歩いた日のことを覚えていますか？\n"))
        #expect(japanese.matches("あの日の犬はどんな様子でしたか、覚えていますか？\n"))
        #expect(!japanese.matches("あの日の海はどんな様子でしたか、覚えていますか？\n"))
        #expect(!Self.grammar("ja", photo: PhotoMetadata(labels: ["dog"])).contains("naming"), "a Latin label is not written into Japanese")
    }

    @Test("settings.json's naming_lines: read, from 0 to candidate_count, and part of the request's constraint")
    func setting() throws {
        let template = try PromptTemplate(name: "t", systemText: "s", userText: "u", settingsText: #"{"candidate_count": 6, "naming_lines": 2}"#)
        #expect(template.settings.namingLines == 2)
        #expect(
            PromptGrammar.gbnf(for: template.constraint(for: .english, photo: Self.photo)).hasPrefix("root ::= item item item item naming naming\n")
        )
        #expect(!PromptGrammar.gbnf(for: template.constraint(for: .english)).contains("naming"), "no photo, no detail to name")
        #expect(throws: TemplateError.self) {
            _ = try PromptTemplate(name: "t", systemText: "s", userText: "u", settingsText: #"{"candidate_count": 6, "naming_lines": 7}"#)
        }
    }
}

/// A test's own reading of the GBNF subset ``PromptGrammar`` writes (literals, classes, groups, alternatives,
/// repetition, rule names), as one regular expression for one rule: an oracle that does not share its code.
struct GrammarPattern {
    private let expression: NSRegularExpression

    init(_ grammar: String, rule: String) throws {
        var rules: [String: String] = [:]
        for line in grammar.split(separator: "\n") {
            let parts = line.split(separator: " ::= ", maxSplits: 1)
            rules[String(parts[0])] = String(parts[1])
        }
        func expand(_ body: String) -> String {
            var pattern = ""
            var index = body.startIndex
            while index < body.endIndex {
                let character = body[index]
                if character == "\"" {
                    var end = body.index(after: index)
                    var literal = ""
                    while body[end] != "\"" {
                        if body[end] == "\\" {
                            end = body.index(after: end)
                            literal.append(body[end] == "n" ? "\n" : body[end])
                        } else {
                            literal.append(body[end])
                        }
                        end = body.index(after: end)
                    }
                    pattern += NSRegularExpression.escapedPattern(for: literal)
                    index = body.index(after: end)
                } else if character == "[" {
                    let end = body[index...].firstIndex(of: "]")!
                    pattern += body[index...end]
                    index = body.index(after: end)
                } else if character == "{" {
                    let end = body[index...].firstIndex(of: "}")!
                    pattern += body[index...end]
                    index = body.index(after: end)
                } else if character.isLetter {
                    let end = body[index...].firstIndex { !$0.isLetter && !$0.isNumber } ?? body.endIndex
                    pattern += "(?:" + expand(rules[String(body[index..<end])]!) + ")"
                    index = end
                } else {
                    if character == "(" { pattern += "(?:" } else if character != " " { pattern.append(character) }
                    index = body.index(after: index)
                }
            }
            return pattern
        }
        expression = try NSRegularExpression(pattern: "^(?:" + expand(rules[rule]!) + ")$")
    }

    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
