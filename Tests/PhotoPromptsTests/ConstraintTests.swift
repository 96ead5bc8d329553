import Foundation
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain
import PromptTemplates
import Testing

@testable import PhotoPrompts

/// What the model is asked for is what the gate accepts: the grammar and the schema come from the word rule.
@Suite("Asking for what the gate accepts: the grammar and the JSON schema")
struct ConstraintTests {
    static func constraint(_ locale: String, items: Int = 6) -> OutputConstraint {
        let language = LanguageTag(locale: locale)
        return OutputConstraint(items: items, language: language, wordRule: .for(language))
    }

    @Test("English: six lines, a capital, 8 to 15 words of letters, one question mark each")
    func english() {
        let grammar = PromptGrammar.gbnf(for: Self.constraint("en-US"))
        #expect(grammar.hasPrefix("root ::= item item item item item item\n"))
        #expect(grammar.contains(#"item ::= (cap letter{0,15} (","? " " word){7,14}) "?" "\n""#), "\(grammar)")
        #expect(grammar.contains("letter ::= [a-zA-ZÀ-ÖØ-öø-ÿ]"), "letters listed: no no-break space, digit or bracket")
        // Each script's class as llama.cpp reads it: Latin-1 as itself, the rest as four hex digits.
        #expect(PromptGrammar.gbnf(for: Self.constraint("ar")).contains(#"letter ::= [\u0621-\u065F\u066E-\u06D3]"#))
        #expect(PromptGrammar.gbnf(for: Self.constraint("ja")).contains(#"letter ::= [\u4E00-\u9FFF\u3041-\u3096\u30A1-\u30FA\u30FC]"#))
    }

    @Test(
        "Each language's range and question mark come from its word rule; unspaced scripts are bounded in characters",
        arguments: [
            ("es", #"item ::= "¿" (cap letter{0,15} (","? " " word){6,13}) "?" "\n""#),
            ("fr", #"item ::= (cap letter{0,15} (","? " " word){5,12}) "?" "\n""#),
            ("ar", #"item ::= (word (","? " " word){5,12}) "؟" "\n""#),
            ("ko", #"item ::= (word (","? " " word){4,10}) "?" "\n""#),
            ("ja", #"item ::= letter char{10,62} "？" "\n""#),
            ("zh-Hant", #"item ::= letter char{6,31} "？" "\n""#),
            ("th", #"item ::= letter char{8,62} "?" "\n""#),
        ]
    )
    func perLanguage(locale: String, item: String) {
        let grammar = PromptGrammar.gbnf(for: Self.constraint(locale))
        #expect(grammar.contains(item), "\(grammar)")
    }

    @Test("The repository's openers and examples shape the grammar: English opens with question words, French may write qu'as-tu")
    func fromThePromptsFolder() throws {
        let template = try PromptTemplate.load(name: "photo-journal", from: repositoryPromptsDirectory, dictionaries: testDictionaries)
        let english = PromptGrammar.gbnf(for: template.constraint(for: LanguageTag.english))
        // A one-word opener leaves 7 to 14 words to write, a two-word one 6 to 13.
        #expect(english.contains(#"item ::= (("Which") (","? " " word){7,14} | ("What did" | "#), "\(english)")
        #expect(english.contains(#"(","? " " word){6,13}) "?" "\n""#), "\(english)")
        #expect(!english.contains("joined"), "no apostrophes in English: a small model glues words across one")
        let french = PromptGrammar.gbnf(for: template.constraint(for: LanguageTag(locale: "fr")))
        #expect(french.contains("word ::= letter{1,16} joined?") && french.contains("joined ::= ['’-] letter{1,16}"), "\(french)")
    }

    @Test("A template's word_ranges change the grammar with the rule")
    func overrides() throws {
        let template = try PromptTemplate(name: "t", systemText: "s", userText: "u", settingsText: #"{"word_ranges": {"en": {"min": 5, "max": 9}}}"#)
        #expect(PromptGrammar.gbnf(for: template.constraint(for: LanguageTag.english)).contains("{4,8}"))
    }

    @Test("The JSON schema has the item count and a length per item, and no pattern")
    func schema() throws {
        let json = String(decoding: try JSONEncoder().encode(PromptListSchema(Self.constraint("en"))), as: UTF8.self)
        for part in [#""minItems":6"#, #""maxItems":6"#, #""minLength":24"#, #""maxLength":120"#, #""additionalProperties":false"#] {
            #expect(json.contains(part), "\(json)")
        }
        #expect(!json.contains("pattern"))
    }

    @Test("max_tokens is sized from the item count and the longest question, not a flat 400")
    func maxTokens() {
        #expect(Self.constraint("en").maxTokens == 6 * (15 * 2 + 4))
        #expect(Self.constraint("ja").maxTokens == 6 * (21 * 3 + 4))
        #expect(Self.constraint("en", items: 3).maxTokens < Self.constraint("en").maxTokens)
    }

    @Test("auto on an OpenAI-compatible server sends the JSON schema until the server says it is llama.cpp's, then a grammar; learned once")
    func autoLearnsWhatTheServerIs() {
        let identity = BackendIdentity(provider: "openai", model: "m")
        let shape = RequestShape(options: BackendOptions(), backend: identity, strongest: nil)
        #expect(shape.awaitsServerKind)
        #expect(shape.current.output == .jsonSchema)
        shape.learn(strongest: .grammar)
        #expect(!shape.awaitsServerKind)
        #expect(shape.current.output == .grammar)
        shape.learn(strongest: .jsonSchema)
        #expect(shape.current.output == .grammar, "learned once")
        let generic = RequestShape(options: BackendOptions(), backend: identity, strongest: nil)
        generic.learn(strongest: .jsonSchema)
        #expect(generic.current.output == .jsonSchema)
        for setting in [BackendOptions.StructuredOutput.grammar, .jsonSchema, .off] {
            #expect(!RequestShape(options: BackendOptions(structuredOutput: setting), backend: identity, strongest: nil).awaitsServerKind)
        }
    }

    @Test("auto starts with the grammar, falls back to the JSON schema on a refusal naming it, then to plain text")
    func fallbackOnRefusal() {
        let shape = RequestShape(options: BackendOptions(), backend: BackendIdentity(provider: "openai", model: "m"), strongest: .grammar)
        #expect(shape.current.output == .grammar)
        #expect(shape.adapt(after: .httpStatus(400, detail: "Unrecognized request argument supplied: grammar")))
        #expect(shape.current.output == .jsonSchema)
        #expect(shape.adapt(after: .httpStatus(400, detail: "Invalid parameter: 'response_format' of type 'json_schema' is not supported")))
        #expect(shape.current.output == .plain)
        #expect(!shape.adapt(after: .httpStatus(400, detail: "Unrecognized request argument supplied: grammar")))
        let fixed = RequestShape(
            options: BackendOptions(structuredOutput: .grammar),
            backend: BackendIdentity(provider: "openai", model: "m"),
            strongest: .grammar
        )
        #expect(!fixed.adapt(after: .httpStatus(400, detail: "Unrecognized request argument supplied: grammar")), "a named setting is kept")
    }
}
