import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

@Suite("Bad input gets a JSON error naming the field, and never crashes the service")
struct RequestValidationTests {
    @Test(
        "Wrong types and out-of-range values are 400 invalid_request naming the field",
        arguments: [
            (#"{"photo": {"people_count": "two"}}"#, "photo.people_count"),
            (#"{"photo": {"people_count": 2.5}}"#, "photo.people_count"),
            (#"{"photo": {"people_count": -1}}"#, "photo.people_count"),
            (#"{"photo": {"labels": "beach"}}"#, "photo.labels"),
            (#"{"photo": {"labels": ["beach", 7]}}"#, "photo.labels[1]"),
            (#"{"photo": {"labels": [null]}}"#, "photo.labels[0]"),
            (#"{"photo": {"location": {"latitude": 91}}}"#, "photo.location.latitude"),
            (#"{"photo": {"location": {"longitude": "east"}}}"#, "photo.location.longitude"),
            (#"{"photo": {"location": []}}"#, "photo.location"),
            (#"{"photo": {"taken_at": "yesterday"}}"#, "photo.taken_at"),
            (#"{"photo": {"taken_at": 1732211000}}"#, "photo.taken_at"),
            (#"{"photo": "a beach"}"#, "photo"),
            (#"{"user_id": 123, "photo": {}}"#, "user_id"),
            (#"{"locale": "en US; drop table", "photo": {}}"#, "locale"),
            (#"{"locale": "en-US"}"#, "photo"),
            (#"[]"#, "body"),
            (#"{"photo": {"#, "body"),
            (#"not json"#, "body"),
        ]
    )
    func invalidFields(body: String, field: String) async throws {
        try await withRouterService(baseEnvironment()) { client in
            let message = try await Self.invalidRequestMessage(client.post("/v1/prompts", json: body), naming: field)
            if field == "photo.people_count" {
                #expect(message.contains("integer"), "\(message)")
            }
        }
    }

    @Test(
        "A key sent twice and a number too large to read are 400 naming the field, on every JSON route",
        arguments: [
            (#"{"photo":{},"photo":{"labels":1}}"#, "photo", "appears twice"),
            (#"{"photo": {"labels": ["a"], "labels": ["b"]}}"#, "photo.labels", "appears twice"),
            (#"{"photo": {}, "user_id": "u1", "user_\u0069d": "u2"}"#, "user_id", "appears twice"),
            (#"{"photo": {"people_count": 1e400}}"#, "photo.people_count", "too large"),
            (#"{"photo": {"location": {"latitude": -1e999}}}"#, "photo.location.latitude", "too large"),
        ]
    )
    func duplicateKeysAndHugeNumbers(body: String, field: String, problem: String) async throws {
        try await withRouterService(baseEnvironment()) { client in
            let message = try await Self.invalidRequestMessage(client.post("/v1/prompts", json: body), naming: field)
            #expect(message.contains(problem), "\(message)")
            let session = try await client.startSession()
            let promptID = session.prompts[0].id
            let feedback = try await client.post(
                "/v1/sessions/\(session.sessionID)/feedback",
                json: #"{"prompt_id": "\#(promptID)", "action": "selected", "action": "dismissed"}"#
            )
            #expect(feedback.status == 400)
            #expect(feedback.errorDetails == ["action"])
        }
    }

    @Test("user_id in the body and X-User-ID in the header that name different users: 400 naming both; the same user in both is fine")
    func conflictingUsers() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let body = #"{"user_id": "u_body", "photo": {}}"#
            let conflict = try await client.post("/v1/prompts", json: body, headers: [("X-User-ID", "u_header")])
            #expect(conflict.status == 400)
            #expect(conflict.errorCode == "invalid_request")
            #expect(conflict.errorDetails == ["user_id", "X-User-ID"])
            #expect(try await client.post("/v1/prompts", json: body, headers: [("X-User-ID", "u_body")]).status == 200)
            #expect(try await client.post("/v1/prompts", json: body).status == 200)
        }
    }

    /// Checks that `reply` is 400 `invalid_request` naming `field` in its details and its message; returns the message.
    static func invalidRequestMessage(_ reply: ServiceClient.Reply, naming field: String) throws -> String {
        #expect(reply.status == 400)
        #expect(reply.errorCode == "invalid_request")
        #expect(reply.errorDetails == [field])
        let message = try #require((try reply.json["error"] as? [String: Any])?["message"] as? String)
        #expect(message.hasPrefix(field), "\(message)")
        return message
    }

    @Test("Bounds: at most 32 labels of 64 characters, a caption of 500 characters")
    func bounds() async throws {
        try await withRouterService(baseEnvironment()) { client in
            func labels(_ count: Int, length: Int = 5) -> String {
                "[" + Array(repeating: "\"" + String(repeating: "a", count: length) + "\"", count: count).joined(separator: ",") + "]"
            }
            #expect(try await client.post("/v1/prompts", json: #"{"photo": {"labels": \#(labels(32, length: 64))}}"#).status == 200)
            let tooMany = try await client.post("/v1/prompts", json: #"{"photo": {"labels": \#(labels(33))}}"#)
            #expect(tooMany.status == 400)
            #expect(tooMany.errorDetails == ["photo.labels"])
            let tooLong = try await client.post("/v1/prompts", json: #"{"photo": {"labels": ["ok", "\#(String(repeating: "b", count: 65))"]}}"#)
            #expect(tooLong.errorDetails == ["photo.labels[1]"])
            #expect(
                try await client.post("/v1/prompts", json: #"{"photo": {"caption": "\#(String(repeating: "c", count: 500))"}}"#).status == 200
            )
            let longCaption = try await client.post("/v1/prompts", json: #"{"photo": {"caption": "\#(String(repeating: "c", count: 501))"}}"#)
            #expect(longCaption.status == 400)
            #expect(longCaption.errorDetails == ["photo.caption"])
        }
    }

    @Test("An empty photo is valid, and unknown fields are ignored")
    func minimalAndUnknownFields() async throws {
        try await withRouterService(baseEnvironment()) { client in
            #expect(try await client.startSession(#"{"photo": {}}"#).prompts.count == 3)
            let answer = try await client.startSession(#"{"photo": {"labels": ["dog"], "exif": {"iso": 100}}, "app_version": "3.1"}"#)
            #expect(answer.prompts.count == 3)
        }
    }

    @Test("Control characters are stripped from strings before they are stored or sent to the model")
    func controlCharacters() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let labels = #"["\u0007dog", "  beach  towel ", "   ", "sea"]"#
            let answer = try await client.startSession(
                #"{"photo": {"caption": "sun\u0000set\n\tat\u001b[31m the beach", "labels": "# + labels + "}}"
            )
            let session = try await client.session(answer.sessionID).decode(SessionResponse.self)
            #expect(session.photo.caption == "sun set at [31m the beach")
            // Spaces around and between words are collapsed too; a label of spaces only is dropped.
            #expect(session.photo.labels == ["dog", "beach towel", "sea"])
        }
    }

    @Test("A body over 64 KiB is 413")
    func bodyTooLarge() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let padding = String(repeating: "x", count: 70 * 1024)
            let reply = try await client.post("/v1/prompts", json: #"{"photo": {}, "padding": "\#(padding)"}"#)
            #expect(reply.status == 413)
            #expect(reply.errorCode == "payload_too_large")
        }
    }

    @Test("A missing or non-JSON content type is 415", arguments: [nil, "text/plain", "application/x-www-form-urlencoded"])
    func contentType(contentType: String?) async throws {
        try await withRouterService(baseEnvironment()) { client in
            let headers = contentType.map { [(name: "Content-Type", value: $0)] } ?? []
            let reply = try await client.send("POST", "/v1/prompts", body: #"{"photo": {}}"#, headers: headers)
            #expect(reply.status == 415)
            #expect(reply.errorCode == "unsupported_media_type")
        }
    }

    @Test("JSON with a charset parameter is accepted")
    func contentTypeWithCharset() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let reply = try await client.send(
                "POST",
                "/v1/prompts",
                body: #"{"photo": {}}"#,
                headers: [("Content-Type", "application/json; charset=utf-8")]
            )
            #expect(reply.status == 200)
        }
    }

    @Test("Unknown routes get the same JSON error shape")
    func unknownRoute() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let reply = try await client.send("GET", "/v2/nothing")
            #expect(reply.status == 404)
            #expect(reply.errorCode == "not_found")
        }
    }

    @Test("Random and mutated bodies never produce a 5xx")
    func noInputCrashes() async throws {
        let seeds = [samplePhotoRequest, #"{"photo": {"labels": ["a"], "location": {"latitude": 1}}}"#]
        try await withRouterService(baseEnvironment()) { client in
            var generator = SeededGenerator(seed: 42)
            for _ in 0..<300 {
                var bytes = Array(seeds[Int(generator.next() % 2)].utf8)
                for _ in 0..<Int(generator.next() % 8) + 1 {
                    let index = Int(generator.next() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                }
                let body = String(decoding: bytes, as: UTF8.self)
                let reply = try await client.post("/v1/prompts", json: body)
                #expect(reply.status < 500, "\(reply.status) for \(body)")
                #expect((try? reply.json) != nil, "not JSON for \(body)")
            }
        }
    }
}
