import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

@Suite("Client API keys, and sessions that only their owner can see")
struct AccessTests {
    static let ios = ClientKeys.generate(name: "ios")
    static let web = ClientKeys.generate(name: "web")

    static func environment() -> [String: String] {
        var environment = baseEnvironment()
        environment["API_KEYS"] = "\(ios.entry),\(web.entry)"
        return environment
    }

    static func bearer(_ key: String) -> [(name: String, value: String)] {
        [("Authorization", "Bearer \(key)")]
    }

    @Test("With API_KEYS set, /v1 needs one of the keys: missing or wrong is 401, and /healthz stays open")
    func keysRequired() async throws {
        try await withRouterService(Self.environment()) { client in
            let missing = try await client.post("/v1/prompts", json: samplePhotoRequest)
            #expect(missing.status == 401)
            #expect(missing.errorCode == "unauthorized")
            let wrong = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: Self.bearer(Self.ios.key + "x"))
            #expect(wrong.status == 401)
            let session = try await client.startSession(headers: Self.bearer(Self.ios.key))
            #expect(session.prompts.count == 3)
            #expect(try await client.send("GET", "/healthz").status == 200)
        }
    }

    @Test("Another key sees another client's session exactly as an unknown id: 404 to read, refresh or give feedback, and no slot is spent")
    func otherClientGets404() async throws {
        try await withRouterService(Self.environment()) { client in
            let session = try await client.startSession(headers: Self.bearer(Self.ios.key))
            // One trace for every request, so that the error bodies, which name it, can be compared byte for byte.
            let trace = ("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
            let unknown = try await client.send("GET", "/v1/sessions/s_doesnotexist", headers: Self.bearer(Self.web.key) + [trace])
            let paths = [
                ("GET", "/v1/sessions/\(session.sessionID)", nil as String?),
                ("POST", "/v1/sessions/\(session.sessionID)/refresh", nil),
                ("POST", "/v1/sessions/\(session.sessionID)/feedback", #"{"prompt_id": "\#(session.prompts[0].id)", "action": "selected"}"#),
            ]
            for (method, path, body) in paths {
                for _ in 0..<3 {
                    var headers = Self.bearer(Self.web.key) + [trace]
                    if body != nil { headers.append(("Content-Type", "application/json")) }
                    let reply = try await client.send(method, path, body: body, headers: headers)
                    #expect(reply.status == 404, "\(method) \(path)")
                    #expect(reply.body == unknown.body, "the same answer as for an id that does not exist")
                }
            }
            let owner = try await client.send(
                "GET",
                "/v1/sessions/\(session.sessionID)",
                headers: Self.bearer(Self.ios.key) + [("X-User-ID", "u_123")]
            ).lookup
            #expect(owner["refreshes_remaining"].int == 5)
        }
    }

    @Test("A session made for a user_id answers only that user (X-User-ID), even with the same key")
    func otherUserGets404() async throws {
        try await withRouterService(Self.environment()) { client in
            var client = client
            client.userID = nil
            let body = #"{"user_id": "u_alice", "photo": {"labels": ["kite"]}}"#
            let session = try await client.startSession(body, headers: Self.bearer(Self.ios.key))
            let path = "/v1/sessions/\(session.sessionID)"
            #expect(try await client.send("GET", path, headers: Self.bearer(Self.ios.key) + [("X-User-ID", "u_alice")]).status == 200)
            #expect(try await client.send("GET", path, headers: Self.bearer(Self.ios.key) + [("X-User-ID", "u_bob")]).status == 404)
            #expect(try await client.send("GET", path, headers: Self.bearer(Self.ios.key)).status == 404)
            let bobRefresh = try await client.send("POST", path + "/refresh", headers: Self.bearer(Self.ios.key) + [("X-User-ID", "u_bob")])
            #expect(bobRefresh.status == 404)
            let aliceRefresh = try await client.send("POST", path + "/refresh", headers: Self.bearer(Self.ios.key) + [("X-User-ID", "u_alice")])
            #expect(aliceRefresh.status == 200)
            #expect(aliceRefresh.lookup["refreshes_used"].int == 1)
        }
    }

    @Test("Without API_KEYS the service refuses to listen beyond loopback, naming HTTP_HOST")
    func openMeansLoopbackOnly() throws {
        var environment = baseEnvironment()
        environment["HTTP_HOST"] = "0.0.0.0"
        #expect {
            _ = try configuration(environment)
        } throws: { error in
            "\(error)".contains("HTTP_HOST") && "\(error)".contains("API_KEYS")
        }
        environment["API_KEYS"] = Self.ios.entry
        #expect(throws: Never.self) { _ = try configuration(environment) }
    }

    @Test(
        "Bad API_KEYS entries stop start-up naming the key",
        arguments: ["ios", "ios:abc", "ios:" + String(repeating: "z", count: 64), "\(ios.entry),\(ios.entry)"]
    )
    func badKeys(_ value: String) {
        var environment = baseEnvironment()
        environment["API_KEYS"] = value
        #expect {
            _ = try configuration(environment)
        } throws: { error in
            "\(error)".contains("API_KEYS")
        }
    }

    @Test("With API_KEYS set, a missing LLM_PROVIDER stops start-up with one line naming it; LLM_PROVIDER=stub is the stub on purpose")
    func keysNeedANamedProvider() throws {
        var environment = baseEnvironment()
        environment["LLM_PROVIDER"] = nil
        #expect(try configuration(environment).backends.first?.provider == .stub, "without keys the stub stays the default (make run)")
        environment["API_KEYS"] = Self.ios.entry
        #expect {
            _ = try configuration(environment)
        } throws: { error in
            let text = "\(error)"
            return text.contains("LLM_PROVIDER") && text.contains("LLM_PROVIDER=stub") && !text.contains("\n")
        }
        environment["LLM_PROVIDER"] = "stub"
        #expect(try configuration(environment).backends.first?.provider == .stub)
    }
}
