import Foundation
import NIOCore
import Testing

@testable import PhotoPrompts

/// `POST /v1/prompts` bodies are read by a small scanner first and by `JSONDecoder` when the scanner gives up.
/// The scanner must never change an answer: what it reads, it reads as `JSONDecoder` does, and whatever
/// `JSONDecoder` rejects (with an error naming the field), the scanner leaves to it.
@Suite("The request scanner reads what JSONDecoder reads, and leaves the rest to it")
struct ScannedRequestTests {
    static func decoded(_ body: [UInt8]) -> PromptRequest? {
        try? JSONRequestDecoder.decode(PromptRequest.self, from: ByteBuffer(bytes: body))
    }

    static func scanned(_ body: [UInt8]) -> PromptRequest? {
        PromptRequest.scanned(from: ByteBuffer(bytes: body))
    }

    static func same(_ left: PromptRequest, _ right: PromptRequest) -> Bool {
        left.userID == right.userID && left.locale == right.locale && left.photo == right.photo
    }

    static let plain: [String] = [
        #"{"photo": {}}"#,
        #"{"user_id": "u1", "locale": "pt-PT", "photo": {"taken_at": "2026-11-21T17:42:00Z", "location": {"name": "Praia da Rocha", "locality": "Portimão", "country": "PT", "latitude": 37.1172, "longitude": -8.5378}, "labels": ["beach", "sunset", "dog"], "people_count": 2, "caption": "Last swim", "source": "camera"}}"#,
        #"{"user_id": null, "locale": null, "photo": {"taken_at": null, "location": null, "labels": null, "people_count": null, "caption": null, "source": null}}"#,
        #"{"photo": {"location": {"name": null, "latitude": null}}}"#,
        " \t\r\n{ \"photo\" : { \"labels\" : [ ] , \"people_count\" : 0 } } \n",
        #"{"photo": {"caption": "esc \" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u6d77 \ud83c\udf89 \u0000 end"}}"#,
        #"{"photo": {"caption": "raw é 海辺 🎉 and DEL \#u{7F}"}}"#,
        #"{"photo": {"people_count": 1e2, "location": {"latitude": -0, "longitude": 1E-2}}}"#,
        #"{"photo": {"people_count": 3.0, "location": {"latitude": 0.000001, "longitude": 123456789012345678901234567890}}}"#,
        #"{"photo": {"location": {"latitude": 37.1234567890123456789, "longitude": 2.2250738585072014e-308}}}"#,
        #"{"app_version": "3.1", "extra": {"nested": [1, 2.5, true, false, null, {"a": []}]}, "photo": {"exif": {"iso": 100}}}"#,
        #"{"photo": {"labels": ["", "  spaced  ", "\u0007bell"]}, "user_id": "   "}"#,
    ]

    @Test("Plain requests are read exactly as JSONDecoder reads them")
    func plainRequests() throws {
        for body in Self.plain {
            let bytes = Array(body.utf8)
            let decoded = try #require(Self.decoded(bytes), "JSONDecoder should read \(body)")
            let scanned = try #require(Self.scanned(bytes), "the scanner should read \(body)")
            #expect(Self.same(scanned, decoded), "\(body)")
        }
    }

    static let rejected: [String] = [
        #"{"photo": {"people_count": "two"}}"#,
        #"{"photo": {"people_count": 2.5}}"#,
        #"{"photo": {"people_count": 1e400}}"#,
        #"{"photo": {"people_count": 12345678901234567890}}"#,
        #"{"photo": {"labels": "beach"}}"#,
        #"{"photo": {"labels": ["beach", 7]}}"#,
        #"{"photo": {"labels": [null]}}"#,
        #"{"photo": {"location": {"longitude": "east"}}}"#,
        #"{"photo": {"location": []}}"#,
        #"{"photo": {"taken_at": 1732211000}}"#,
        #"{"photo": "a beach"}"#,
        #"{"photo": null}"#,
        #"{"user_id": 123, "photo": {}}"#,
        #"{"locale": "en-US"}"#,
        #"[]"#,
        #"{"photo": {"#,
        #"not json"#,
        #"{"photo": {}} trailing"#,
        #"{"photo": {"people_count": 01}}"#,
        #"{"photo": {"people_count": +1}}"#,
        #"{"photo": {"people_count": 1.}}"#,
        #"{"photo": {"people_count": .5}}"#,
        #"{"photo": {"caption": "lone \ud83c surrogate"}}"#,
        #"{"photo": {"caption": "bad \x escape"}}"#,
        "{\"photo\": {\"caption\": \"raw \n newline\"}}",
        #"{'photo': {}}"#,
        #"{"photo": {"location": {"latitude": 1e-400}}}"#,
        #"{"photo": {"location": {"latitude": NaN}}}"#,
        "",
    ]

    @Test("Whatever JSONDecoder rejects, the scanner leaves to it")
    func rejectedRequests() {
        var bodies = Self.rejected.map { Array($0.utf8) }
        bodies.append(Array(#"{"photo": {"caption": ""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8))  // invalid UTF-8
        for body in bodies {
            #expect(Self.decoded(body) == nil, "JSONDecoder accepts \(String(decoding: body, as: UTF8.self))")
            #expect(Self.scanned(body) == nil, "the scanner accepts \(String(decoding: body, as: UTF8.self))")
        }
    }

    @Test("Duplicate keys, trailing commas (which JSONDecoder allows) and deep nesting are left to JSONDecoder")
    func leftToFoundation() {
        for body in [#"{"photo": {"caption": "a", "caption": "b"}}"#, #"{"photo": {},}"#, #"{"photo": {"labels": ["a",]}}"#] {
            #expect(Self.scanned(Array(body.utf8)) == nil, "\(body)")
        }
        let deep = Array((#"{"photo": {}, "x": "# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}").utf8)
        #expect(Self.decoded(deep) != nil)
        #expect(Self.scanned(deep) == nil)
    }

    @Test("Mutated bodies: whenever the scanner reads one, JSONDecoder reads it the same")
    func mutatedBodies() {
        // Seeded (`SeededGenerator`, SplitMix64), so a failure here is reproducible.
        var generator = SeededGenerator(seed: 20_261_122)
        let interesting = Array(#""\{}[],:0129-.eEnu tf"#.utf8) + [0x01, 0x7F, 0xC3, 0xA9, 0xFF]
        var scannedCount = 0
        var leftCount = 0
        for _ in 0..<4000 {
            var body = Array(Self.plain.randomElement(using: &generator)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = Int.random(in: 0..<body.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: body[index] = interesting.randomElement(using: &generator)!
                case 1: body.remove(at: index)
                default: body.insert(interesting.randomElement(using: &generator)!, at: index)
                }
                if body.isEmpty { body = [UInt8(ascii: "{")] }
            }
            guard let scanned = Self.scanned(body) else {
                leftCount += 1
                continue
            }
            scannedCount += 1
            let decoded = Self.decoded(body)
            #expect(decoded.map { Self.same(scanned, $0) } == true, "\(String(decoding: body, as: UTF8.self))")
        }
        // Both sides are exercised: some mutations still read, most do not.
        #expect(scannedCount > 200, "only \(scannedCount) mutated bodies were read")
        #expect(leftCount > 200, "only \(leftCount) mutated bodies were left to JSONDecoder")
    }

    @Test("Random numbers: whenever the scanner reads one, JSONDecoder reads the same Double")
    func randomNumbers() {
        var generator = SeededGenerator(seed: 8_152_026)
        func digits(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &generator)).map { _ in "0123456789".randomElement(using: &generator)! })
        }
        var scannedCount = 0
        for _ in 0..<20000 {
            var literal = Bool.random(using: &generator) ? "-" : ""
            literal += Bool.random(using: &generator) ? "0" : digits(1...3)
            if Bool.random(using: &generator) { literal += "." + digits(0...4) }
            if Bool.random(using: &generator) {
                literal += ["e", "E"].randomElement(using: &generator)! + ["", "+", "-"].randomElement(using: &generator)! + digits(0...3)
            }
            let body = Array(#"{"photo": {"location": {"latitude": \#(literal)}}}"#.utf8)
            guard let scanned = Self.scanned(body) else { continue }
            scannedCount += 1
            let decoded = Self.decoded(body)
            #expect(decoded.map { Self.same(scanned, $0) } == true, "\(literal)")
        }
        #expect(scannedCount > 5000, "only \(scannedCount) numbers were read")
    }
}
