import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import StubModel
import Testing

/// The fluency rule: a line with a word its own model found improbable is not shown, by the log-probabilities the
/// generating call returned; the start of a line, which a grammar may force, is not held against it.
@Suite("Fluency: a line its model doubted is not shown", .dictionariesOpened)
struct FluencyRuleTests {
    /// A reply as a model's tokens: each line cut into pieces of up to three characters, as a tokenizer cuts text,
    /// the line break its own token; every piece at -1 but `doubted`, which maps a piece's index in its line to its
    /// log-probability.
    static func tokens(of lines: [String], doubted: [Int: Double] = [:]) -> (text: String, logprobs: TokenLogprobs) {
        var logprobs = TokenLogprobs()
        for line in lines {
            var rest = Substring(line)
            var index = 0
            while !rest.isEmpty {
                logprobs.append(String(rest.prefix(3)), logprob: doubted[index] ?? -1)
                rest = rest.dropFirst(3)
                index += 1
            }
            logprobs.append("\n", logprob: -0.01)
        }
        return (lines.map { $0 + "\n" }.joined(), logprobs)
    }

    /// A model's tokens as the test writes them, each with its log-probability.
    static func scored(_ pieces: [(text: String, logprob: Double)]) -> TokenLogprobs {
        pieces.reduce(into: TokenLogprobs()) { $0.append($1.text, logprob: $1.logprob) }
    }

    static func verdict(_ line: String, locale: String, doubted: [Int: Double], rules: GateRules = GateRules()) -> PromptRejection.Reason? {
        let reply = tokens(of: [line], doubted: doubted)
        let validation = GateTableTests.validator(locale, rules: rules).judge(reply: reply.text, logprobs: reply.logprobs)
        return validation.rejected.first?.reason
    }

    @Test(
        "In every shipped language a fluent question passes, and one with a doubted word in its middle does not",
        arguments: GateTableTests.referenceQuestions
    )
    func doubtedWordInTheMiddle(locale: String, question: String) {
        let middle = question.count / 3 / 2
        #expect(Self.verdict(question, locale: locale, doubted: [:]) == nil)
        #expect(Self.verdict(question, locale: locale, doubted: [middle: -9]) == .disfluent)
        // What a grammar forces at the start of a line (its opener, its capital) is not the model's choice.
        #expect(Self.verdict(question, locale: locale, doubted: [0: -15]) == nil)
    }

    @Test("The floor is -5 by default: a word at -5 passes, one at -5.01 does not; a template moves it or turns it off")
    func floorAtItsBoundary() {
        let line = "What did you miss most about the quiet mornings in that kitchen?"
        #expect(Self.verdict(line, locale: "en", doubted: [8: -5]) == nil)
        #expect(Self.verdict(line, locale: "en", doubted: [8: -5.01]) == .disfluent)
        #expect(Self.verdict(line, locale: "en", doubted: [8: -4], rules: GateRules(fluencyFloor: -3)) == .disfluent)
        #expect(Self.verdict(line, locale: "en", doubted: [8: -30], rules: GateRules(fluencyFloor: nil)) == nil)
    }

    @Test("settings.json's gate sets the floor (fluency_floor) or turns the rule off (fluency: false); unset, the default")
    func floorFromSettings() throws {
        let floor = { (text: String) in try TemplateSettings.parse(text, file: "t/settings.json").gate.fluencyFloor }
        #expect(try floor(#"{}"#) == -5)
        #expect(try floor(#"{"gate": {"fluency_floor": -3.5}}"#) == -3.5)
        #expect(try floor(#"{"gate": {"fluency": false, "fluency_floor": -3.5}}"#) == nil)
    }

    @Test("Without log-probabilities the rule has no evidence and keeps the line; white space is not a word")
    func silentWithoutEvidence() {
        #expect(GateTableTests.validator("en").judge(reply: Self.broken).rejected.isEmpty)
        // White space inside the line is a token of its own here: doubting it says nothing about the sentence.
        let (before, after) = ("What did you miss most about", "the quiet mornings in that kitchen?")
        let doubtedSpace = Self.scored([(before, -1), (" ", -20), (after, -1), ("\n", -20)])
        #expect(GateTableTests.validator("en").judge(reply: before + " " + after + "\n", logprobs: doubtedSpace).rejected.isEmpty)
        let doubtedWord = Self.scored([(before, -1), (" ", -1), (after, -20), ("\n", -1)])
        #expect(
            GateTableTests.validator("en").judge(reply: before + " " + after + "\n", logprobs: doubtedWord).rejected.map(\.reason) == [.disfluent]
        )
    }

    @Test("The shipped template's English openers are skipped whole: a grammar forced \"What are\" as What, a, re")
    func shippedOpenersSkipped() throws {
        let template = try PromptTemplate.load(name: "photo-journal", from: repositoryPromptsDirectory, dictionaries: testDictionaries)
        let validator = template.validator(for: .english, photo: GateTableTests.photo)
        let line = "What are the sounds you remember most from that evening on the beach?"
        // "What", " a", "re", then the rest: the forced "re" was seen at -16.9 on SmolLM2 (docs/QUALITY.md).
        func reply(_ rest: Double) -> TokenLogprobs {
            Self.scored([("What", -0.5), (" a", -3.0), ("re", -16.9), (" the sounds", rest), (String(line.dropFirst(19)) + "\n", -0.5)])
        }
        #expect(validator.judge(reply: line + "\n", logprobs: reply(-1)).kept.map(\.text) == [line])
        #expect(validator.judge(reply: line + "\n", logprobs: reply(-8)).rejected.map(\.reason) == [.disfluent])
    }

    @Test("The photo's own words are not held against a card: a rare place or label the model copied is improbable, not broken")
    func photoWordsSkipped() {
        // One token a word, each with the space before it, as a model's tokenizer writes them.
        func reply(doubting doubted: String, in line: String = "What did you see on the beach at Portimão that quiet evening?") -> TokenLogprobs {
            let words = line.split(separator: " ").enumerated().map { word in
                ((word.offset == 0 ? "" : " ") + word.element, word.element.hasPrefix(doubted) ? -12.0 : -1)
            }
            return Self.scored(words + [("\n", -0.01)])
        }
        let validator = GateTableTests.validator("en")
        let line = "What did you see on the beach at Portimão that quiet evening?"
        #expect(validator.judge(reply: line + "\n", logprobs: reply(doubting: "Portimão")).rejected.isEmpty)
        #expect(validator.judge(reply: line + "\n", logprobs: reply(doubting: "beach")).rejected.isEmpty)
        #expect(validator.judge(reply: line + "\n", logprobs: reply(doubting: "quiet")).rejected.map(\.reason) == [.disfluent])
        // A photo's word inside another word is not the photo's: "beaches" is judged.
        let plural = "What did you see on the beaches at Portimão that quiet evening?"
        #expect(validator.judge(reply: plural + "\n", logprobs: reply(doubting: "beaches", in: plural)).rejected.map(\.reason) == [.disfluent])
    }

    @Test("Each line of a reply is judged by its own tokens, wherever the extractor finds it")
    func eachLineByItsOwnTokens() {
        let lines = [
            "1. What did you miss most about the quiet mornings in that kitchen?",
            "2. Who walked with you along the beach at sunset that evening?",
            "3. What made you laugh the most on that long drive home?",
        ]
        // The second line's fifth piece (" along" begins there) is doubted; its neighbours are not.
        let reply = Self.tokens(of: lines, doubted: [:])
        let secondStart = lines[0].utf8.count + 1
        let doubted = lines.enumerated().reduce(into: TokenLogprobs()) { all, line in
            all.append(contentsOf: Self.tokens(of: [line.element], doubted: line.offset == 1 ? [5: -9] : [:]).logprobs)
        }
        #expect(doubted.byteCount == reply.logprobs.byteCount)
        #expect(doubted.lowest(startingIn: 0..<secondStart) == -1)
        let validation = GateTableTests.validator("en").judge(reply: reply.text, logprobs: doubted)
        #expect(validation.kept.map(\.text) == [lines[0], lines[2]].map { String($0.dropFirst(3)) })
        #expect(validation.rejected.map(\.reason) == [.disfluent])
    }

    static let broken = "What did you miss the moment tea of on that quiet morning?"
    static let fluent = [
        "Who lit the first lantern at the festival that evening?",
        "What did the festival smell like as the lanterns rose?",
        "Which wish did you whisper as your lantern drifted away?",
        "How did the crowd fall quiet when the lanterns went up?",
    ]

    @Test("Through the router, whole and streamed, a doubted line is not shown; it counts as disfluent in /metrics and the stats")
    func throughTheRouter() async throws {
        // The model doubted " moment" in the broken line, and nothing in the others.
        let backend = ScriptedBackend(name: "m", replies: [[Self.broken] + Self.fluent]) { line in
            Self.scored(
                line.split(separator: " ", omittingEmptySubsequences: false).enumerated().map { word in
                    ((word.offset == 0 ? "" : " ") + word.element, word.element == "moment" ? -9.0 : -0.8)
                }
            )
        }
        let photo = #"{"photo": {"labels": ["lantern", "festival", "tea"]}}"#
        let noCache = [(name: "Cache-Control", value: "no-cache")]
        let prompts = try TemporaryPrompts()
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [backend]) { client in
            let whole = try await client.post("/v1/prompts", json: photo, headers: noCache).decode(PromptsResponse.self)
            #expect(whole.source == .model)
            #expect(Set(whole.prompts.map(\.text)).isSubset(of: Self.fluent))
            let streamed = try await client.post("/v1/prompts", json: photo, headers: noCache + [(name: "Accept", value: "text/event-stream")])
            let events = String(decoding: streamed.body, as: UTF8.self)
            #expect(events.contains("event: prompt"), "\(events)")
            #expect(!events.contains("moment tea of"), "\(events)")
            // Each reply the model wrote held the broken line once: a call, a rejection.
            let metrics = try await client.metricsText()
            #expect(metrics.contains(#"photoprompts_rejections_total{reason="disfluent"} \#(backend.calls)"#), "\(metrics)")
            #expect(try await client.versionStats()["rejections", "disfluent"].int == backend.calls)
        }
    }
}
