import Foundation
import PromptDomain
import Testing

@testable import PhotoPrompts

/// The one JSON setup: Swift's names on one side, the wire's snake_case on the other, both ways, and `null` where the
/// API documents one.
@Suite("JSON keys: Swift's camelCase in, the wire's snake_case out, and back")
struct SnakeCaseJSONTests {
    /// Swift names, with acronyms, digits and runs of capitals, and what the wire calls them.
    static let names = [
        ("sessionID", "session_id"), ("userID", "user_id"), ("traceID", "trace_id"), ("takenAt", "taken_at"), ("id", "id"),
        ("latencyP50Ms", "latency_p50_ms"), ("firstAnswerP95Ms", "first_answer_p95_ms"),
        ("nearDuplicateAnswersByLanguage", "near_duplicate_answers_by_language"),
    ]

    /// Writes one key through the encoder's own strategy.
    struct OneKey: Encodable {
        var name: String
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: SnakeCaseJSON.Key.self)
            try container.encode(1, forKey: SnakeCaseJSON.Key(name))
        }
    }

    @Test("Each name is written as Foundation's convertToSnakeCase writes it, and read back as the Swift name", arguments: names)
    func bothWays(swift: String, wire: String) throws {
        #expect(String(decoding: try SnakeCaseJSON.encoder.encode(OneKey(name: swift)), as: UTF8.self) == "{\"\(wire)\":1}")
        #expect(SnakeCaseJSON.snakeCase(swift) == wire)
        #expect(SnakeCaseJSON.camelCase(wire) == swift)
    }

    @Test("A dictionary's keys are data, never converted")
    func dictionaryKeys() throws {
        let languages = ["zh-Hant": 1, "pt_PT": 2]
        let json = try SnakeCaseJSON.encoder.encode(languages)
        #expect(String(decoding: json, as: UTF8.self) == #"{"pt_PT":2,"zh-Hant":1}"#)
        #expect(try SnakeCaseJSON.decoder.decode([String: Int].self, from: json) == languages)
    }

    @Test("An explicit null is written as null and read back as nil")
    func explicitNull() throws {
        struct Answer: Codable {
            @ExplicitNull var winner: String?
            var runnerUp: String?
        }
        let json = try SnakeCaseJSON.encoder.encode(Answer(winner: nil, runnerUp: nil))
        #expect(String(decoding: json, as: UTF8.self) == #"{"winner":null}"#)
        #expect(try SnakeCaseJSON.decoder.decode(Answer.self, from: Data(#"{"winner":"b","runner_up":"a"}"#.utf8)).winner == "b")
    }

    @Test("A decoding error names the field as the wire does")
    func errorPath() throws {
        let body = Data(#"{"photo":{"people_count":"2"}}"#.utf8)
        let error = #expect(throws: DecodingError.self) { try SnakeCaseJSON.decoder.decode(PromptRequest.self, from: body) }
        #expect(try DecodingProblem(#require(error)).field == "photo.people_count")
    }
}
