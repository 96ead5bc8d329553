import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptGeneration
import PromptTemplates
import Testing

@testable import PhotoPrompts

/// The answer, the cache key and the session's JSON columns are written by hand for speed. They must stay the bytes
/// `JSONEncoder` writes: clients, idempotent replays and cache keys must not change with the writer.
@Suite("JSON written by JSONBytesWriter is what JSONEncoder writes")
struct JSONBytesWriterTests {
    /// The encoder the hand-written JSON stands in for: the API's.
    static let reference = SnakeCaseJSON.encoder

    /// The same, for the cache key's and the stored prompts' own keys, which their writers have always written in
    /// camelCase (others would miss every cached answer): only the photo and the parameters inside a key are snake_case.
    static let storedKeys: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .custom { path in
            let key = path[path.count - 1]
            guard path.count > 1, ["photo", "parameters"].contains(path[0].stringValue) else { return key }
            return SnakeCaseJSON.Key(SnakeCaseJSON.snakeCase(key.stringValue))
        }
        return encoder
    }()

    static let awkward = "Quote \" back\\slash / tab\tline\ncr\r bell\u{7} nul\u{0} us\u{1F} del\u{7F} café 海辺 🎉 \u{2028}"

    static let fullPhoto = PhotoMetadata.everyField(text: awkward, peopleCount: 3)

    static func written(_ write: (inout JSONBytesWriter) -> Void) -> String {
        JSONBytesWriter.text(reservingCapacity: 64, write)
    }

    static func encoded(_ value: some Encodable, by encoder: JSONEncoder = reference) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("Every control character, quote, backslash, slash and non-ASCII character is escaped as Foundation escapes it")
    func strings() throws {
        var everyControl = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        everyControl += "\u{7F}\u{80}\u{2028}\u{2029}\u{FEFF}"
        for text in [everyControl, Self.awkward, "", "plain ASCII", "\"", "\\", "trailing \n", "\u{1}leading"] {
            #expect(Self.written { $0.string(text) } == (try Self.encoded(text)), "\(text.debugDescription)")
        }
    }

    @Test("Numbers are spelled as Foundation spells them")
    func numbers() throws {
        var doubles: [Double] = [0, -0.0, 1, -1, 0.1, 0.5, 37.12, -8.5e-5, 90, -180, 1e16, 1e21, 1e-7, 5e-324, 123_456_789.123]
        // Seeded, so a failure here is reproducible.
        var generator = SeededGenerator(seed: 3712)
        doubles += (0..<200).map { _ in Double.random(in: -180...180, using: &generator) }
        for value in doubles {
            #expect(Self.written { $0.double(value) } == (try Self.encoded(value)), "\(value)")
        }
        for value in [0, 1, -1, 42, Int.max, Int.min] {
            #expect(Self.written { $0.int(value) } == (try Self.encoded(value)))
        }
    }

    @Test("Objects and arrays are separated by commas at every level")
    func nesting() {
        let text = Self.written { json in
            json.beginArray()
            json.beginObject()
            json.key("a")
            json.beginArray()
            json.int(1)
            json.beginObject()
            json.endObject()
            json.null()
            json.endArray()
            json.key("b")
            json.bool(true)
            json.endObject()
            json.beginArray()
            json.endArray()
            json.string("c")
            json.endArray()
        }
        #expect(text == #"[{"a":[1,{},null],"b":true},[],"c"]"#)
    }

    static func answer(round: SessionRound) throws -> SessionAnswer {
        SessionAnswer(
            sessionID: "s_\(Self.awkward)",
            round: round,
            refreshesUsed: 2,
            template: TemplateIdentity(name: "photo-journal", variant: "photo-journal-b", version: "2fc7663fc1af"),
            // Japanese: the copy's message must come through the hand-written writer unescaped and whole.
            copy: try CopyCatalog.load(from: repositoryPromptsDirectory).copy(for: try #require(LanguageTag("ja-JP"))),
            timing: ServerTiming()
        )
    }

    @Test("The prompts answer, its one encoder, reads back whole with every key, null for what is absent, model and fallback")
    func promptsAnswer() throws {
        let prompts = [
            Prompt(id: "p_1", text: Self.awkward, wordCount: 11, source: .model),
            Prompt(id: "p_2", text: "What did the light feel like here?", wordCount: 7, source: .cache),
        ]
        let model = SessionRound(source: .model, prompts: prompts, createdAt: Date(), answeredBy: BackendIdentity(provider: "open\"ai", model: "m/1"))
        let fallback = SessionRound(source: .fallback, fallbackReason: .timeout, prompts: [], createdAt: Date())
        for round in [model, fallback] {
            let response = PromptsResponse(try Self.answer(round: round), refreshLimit: 5)
            let bytes = Data(response.jsonBytes)
            #expect(try SnakeCaseJSON.decoder.decode(PromptsResponse.self, from: bytes) == response)
            let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
            let keys = ["backend", "copy_locale", "fallback_reason", "message", "prompts", "refreshes_remaining", "refreshes_used", "session_id"]
            #expect(Set(object.keys) == Set(keys + ["source", "template"]))
            #expect((object["fallback_reason"] is NSNull) == (round.fallbackReason == nil))
            #expect((object["message"] is NSNull) == (round.fallbackReason == nil))
            #expect((object["backend"] is NSNull) == (round.answeredBy == nil))
            // Each part is the bytes JSONEncoder writes, as the other hand-written types are held to it.
            let prompts = try response.prompts.map { try Self.encoded($0) }
            #expect(String(decoding: bytes, as: UTF8.self).contains("\"prompts\":[" + prompts.joined(separator: ",") + "]"))
        }
        let full = PromptsResponse(try Self.answer(round: model), refreshLimit: 5)
        let unset = unsetProperties(of: full).filter { !["fallbackReason", "message"].contains($0) }
        #expect(unset.isEmpty, "set every property: \(unset)")
    }

    @Test("The cache key's canonical JSON is the bytes JSONEncoder writes, with every input set and with none")
    func cacheKey() throws {
        let full = CacheKey(
            photo: Self.fullPhoto,
            locale: "pt-PT",
            template: TemplateIdentity(name: "photo-journal", version: "abc"),
            backends: [BackendIdentity(provider: "anthropic", model: "claude"), BackendIdentity(provider: "ollama", model: "llama3.2")],
            parameters: ModelParameters(temperature: 0.7, maxTokens: 300, dryMultiplier: 0.8, seed: 7),
            candidateCount: 6,
            lists: "1-abc",
            round: 2,
            age: CacheKey.Age(isRecent: false, yearsAgo: 3)
        )
        #expect(unsetProperties(of: full).isEmpty, "set every property: \(unsetProperties(of: full))")
        let bare = CacheKey(
            photo: PhotoMetadata(location: .init()),
            locale: "en",
            template: TemplateIdentity(name: "t", version: "v"),
            backends: [],
            parameters: ModelParameters(temperature: nil),
            candidateCount: 3,
            lists: "1-def",
            round: 0,
            age: nil
        )
        for key in [full, bare] {
            #expect(String(decoding: key.canonicalJSON, as: UTF8.self) == (try Self.encoded(key, by: Self.storedKeys)))
        }
        #expect(full.hashed != bare.hashed)
    }

    @Test("The photo and prompt columns are the bytes JSONEncoder writes with sorted keys")
    func columns() throws {
        #expect(unsetProperties(of: Self.fullPhoto).isEmpty)
        #expect(Self.fullPhoto.jsonColumn == (try Self.encoded(Self.fullPhoto)))
        #expect(try SnakeCaseJSON.decoder.decode(PhotoMetadata.self, from: Data(Self.fullPhoto.jsonColumn.utf8)) == Self.fullPhoto)
        #expect(PhotoMetadata().jsonColumn == (try Self.encoded(PhotoMetadata())))
        let prompts = [
            ValidPrompt(text: Self.awkward, wordCount: 9, answeredBy: BackendIdentity(provider: "stub", model: "m")),
            ValidPrompt(text: "What did the light feel like here?", wordCount: 7),
        ]
        #expect(ValidPrompt.jsonColumn(prompts) == (try Self.encoded(prompts, by: Self.storedKeys)))
        #expect(try SnakeCaseJSON.decoder.decode([ValidPrompt].self, from: Data(ValidPrompt.jsonColumn(prompts).utf8)) == prompts)
        #expect(ValidPrompt.jsonColumn([]) == "[]")
        let backend = BackendIdentity(provider: "ollama", model: "llama3.2:1b")
        #expect(backend.jsonColumn == (try Self.encoded(backend)))
    }
}
