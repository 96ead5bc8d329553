import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PromptDomain
import Testing

@testable import PhotoPrompts

/// A session's life through the routes, in process: refreshes up to the limit with no prompt twice, ownership,
/// idempotent retries, feedback and the streamed answer. The same app as `RouterTests`, no socket.
@Suite("A session through the routes, in process")
struct SessionRouterTests {
    static let user: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-User-ID")!: "u_1"]

    static func start(_ client: some TestClientProtocol, headers: HTTPFields = user) async throws -> [String: Any] {
        let body = ByteBuffer(string: #"{"locale": "en-US", "photo": {"labels": ["beach", "dog"], "people_count": 2}}"#)
        let response = try await client.execute(uri: "/v1/prompts", method: .post, headers: headers, body: body)
        #expect(response.status == .ok)
        return try RouterTests.json(response)
    }

    static func texts(_ answer: [String: Any]) -> [String] {
        (answer["prompts"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    @Test("Five refreshes, never a prompt twice; the sixth is 429 with the limit copy and the counts")
    func refreshLimit() async throws {
        try await RouterTests.withRouter { client in
            let first = try await Self.start(client)
            let id = try #require(first["session_id"] as? String)
            var shown = Self.texts(first)
            for used in 1...5 {
                let refreshed = try await client.execute(uri: "/v1/sessions/\(id)/refresh", method: .post, headers: Self.user)
                #expect(refreshed.status == .ok)
                let answer = try RouterTests.json(refreshed)
                #expect(answer["refreshes_used"] as? Int == used)
                shown += Self.texts(answer)
            }
            #expect(shown.count == 18)
            #expect(Set(shown.map(PromptNormalizer.repeatKey)).count == shown.count, "a prompt shown twice: \(shown)")
            let refused = try await client.execute(uri: "/v1/sessions/\(id)/refresh", method: .post, headers: Self.user)
            #expect(refused.status == .tooManyRequests)
            let body = try RouterTests.json(refused)
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "refresh_limit_reached")
            #expect((error["message"] as? String)?.isEmpty == false)
            #expect(body["refreshes_used"] as? Int == 5)
            #expect(body["refreshes_remaining"] as? Int == 0)
        }
    }

    @Test("Another user's session is a 404, like one that does not exist, and spends no refresh")
    func ownership() async throws {
        try await RouterTests.withRouter { client in
            let id = try #require(try await Self.start(client)["session_id"] as? String)
            let stranger: HTTPFields = [HTTPField.Name("X-User-ID")!: "u_2"]
            for (uri, method) in [("/v1/sessions/\(id)", HTTPRequest.Method.get), ("/v1/sessions/\(id)/refresh", .post)] {
                let response = try await client.execute(uri: uri, method: method, headers: stranger)
                #expect(response.status == .notFound, "\(method) \(uri)")
            }
            let own = try await client.execute(uri: "/v1/sessions/\(id)/refresh", method: .post, headers: Self.user)
            #expect(try RouterTests.json(own)["refreshes_used"] as? Int == 1)
        }
    }

    @Test("A retry with the same Idempotency-Key gets the first answer byte for byte, marked as a replay")
    func idempotentRetry() async throws {
        try await RouterTests.withRouter { client in
            var headers = Self.user
            headers[HTTPField.Name("Idempotency-Key")!] = "key-1"
            let body = ByteBuffer(string: #"{"locale": "en-US", "photo": {"labels": ["cake"]}}"#)
            let first = try await client.execute(uri: "/v1/prompts", method: .post, headers: headers, body: body)
            let retry = try await client.execute(uri: "/v1/prompts", method: .post, headers: headers, body: body)
            #expect(first.status == .ok && retry.status == .ok)
            #expect(retry.body == first.body)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(first.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
        }
    }

    @Test("Feedback on a shown prompt is recorded, once however often it is sent; on a prompt never shown, 404")
    func feedback() async throws {
        try await RouterTests.withRouter { client in
            let first = try await Self.start(client)
            let id = try #require(first["session_id"] as? String)
            let promptID = try #require((first["prompts"] as? [[String: Any]])?.first?["id"] as? String)
            let body = ByteBuffer(string: #"{"prompt_id": "\#(promptID)", "action": "selected"}"#)
            let recorded = try await client.execute(uri: "/v1/sessions/\(id)/feedback", method: .post, headers: Self.user, body: body)
            let again = try await client.execute(uri: "/v1/sessions/\(id)/feedback", method: .post, headers: Self.user, body: body)
            #expect(recorded.status == .ok && again.status == .ok)
            #expect(try RouterTests.json(again)["recorded_at"] as? String == (try RouterTests.json(recorded)["recorded_at"] as? String))
            let unknown = ByteBuffer(string: #"{"prompt_id": "p_never", "action": "selected"}"#)
            let missing = try await client.execute(uri: "/v1/sessions/\(id)/feedback", method: .post, headers: Self.user, body: unknown)
            #expect(missing.status == .notFound)
            #expect((try RouterTests.json(missing)["error"] as? [String: Any])?["code"] as? String == "prompt_not_found")
        }
    }

    @Test("Accept: text/event-stream answers each prompt as an event, then done with the whole answer")
    func streamed() async throws {
        try await RouterTests.withRouter { client in
            var headers = Self.user
            headers[.accept] = "text/event-stream"
            let body = ByteBuffer(string: #"{"locale": "en-US", "photo": {"labels": ["sunset"]}, "user_id": "u_1"}"#)
            let response = try await client.execute(uri: "/v1/prompts", method: .post, headers: headers, body: body)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/event-stream") == true)
            let text = String(buffer: response.body)
            #expect(text.components(separatedBy: "event: prompt").count - 1 == 3, "\(text)")
            let done = try #require(text.components(separatedBy: "event: done\ndata: ").last?.split(separator: "\n").first)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(done.utf8)) as? [String: Any])
            #expect((answer["prompts"] as? [[String: Any]])?.count == 3)
        }
    }
}
