import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import Testing

extension SystemTests {
    /// A client that gives up on a slow model call closes its socket; the call is then made for nobody, and is
    /// cancelled unless another request with the same photo still waits for it. Real sockets: the closing is the
    /// behaviour.
    @Suite("A client that leaves stops the model call no one else waits for", .serialized)
    struct ClientDepartureTests {
        static let replies = [
            "What did the quiet beach sound like when you first arrived there?",
            "Who were you hoping to share this view of the water with?",
            "Which small moment from this day would you like to remember longest?",
        ]

        /// A model that answers at once, reporting 48 completion tokens, except when the photo is a lighthouse:
        /// that call is held until it is cancelled.
        static func backend() -> ScriptedBackend {
            ScriptedBackend(
                name: "slow",
                replies: [replies],
                usage: TokenUsage(prompt: 200, completion: 48),
                holds: { request in request.messages.contains { $0.content.contains("lighthouse") } }
            )
        }

        static let environment = testEnvironment(stub: nil).merging(["LLM_TIMEOUT": "10", "ADMIN_API_KEY": testAdminKey]) { $1 }

        static let heldRequest: String = {
            let body = #"{"locale": "en-US", "photo": {"labels": ["lighthouse"]}}"#
            return "POST /v1/prompts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        }()

        static func metrics(_ client: ServiceClient) async throws -> String {
            String(decoding: try await client.send("GET", "/metrics", headers: [("Authorization", "Bearer \(testAdminKey)")]).body, as: UTF8.self)
        }

        @Test("The model call is cancelled when its client hangs up, and /metrics counts the call and the tokens saved")
        func hangUpCancels() async throws {
            let backend = Self.backend()
            try await withService(Self.environment, backends: [backend]) { client in
                // One answered call teaches the chain how many tokens this model writes.
                #expect(try await client.startSession(#"{"locale": "en-US", "photo": {"labels": ["beach"]}}"#).prompts.count == 3)
                let connection = try RawConnection(port: try client.livePort)
                try await connection.send(Self.heldRequest)
                try await waitUntil(timeout: .seconds(5)) { backend.calls == 2 }
                connection.hangUp()
                try await waitUntil(timeout: .seconds(5)) { backend.cancellations == 1 }
                let text = try await Self.metrics(client)
                #expect(text.contains(#"photoprompts_backend_calls_total{backend="scripted/slow",outcome="cancelled"} 1"#), "\(text)")
                #expect(text.contains(#"photoprompts_backend_tokens_saved_total{backend="scripted/slow"} 48"#), "\(text)")
                // The next client with this photo starts a call of its own rather than joining the cancelled one.
                let next = try RawConnection(port: try client.livePort)
                try await next.send(Self.heldRequest)
                try await waitUntil(timeout: .seconds(5)) { backend.calls == 3 }
                next.hangUp()
                try await waitUntil(timeout: .seconds(5)) { backend.cancellations == 2 }
            }
        }

        @Test("A call two clients share goes on when one hangs up, and is cancelled when the other does too")
        func sharedCallOutlivesOneClient() async throws {
            let backend = Self.backend()
            try await withService(Self.environment, backends: [backend]) { client in
                let first = try RawConnection(port: try client.livePort)
                try await first.send(Self.heldRequest)
                try await waitUntil(timeout: .seconds(5)) { backend.calls == 1 }
                let second = try RawConnection(port: try client.livePort)
                try await second.send(Self.heldRequest)
                // The second request joins the first's call (one call for one photo): it has nothing to wait on
                // that a test could see, and a local request reaches the join well within this pause.
                try await Task.sleep(for: .milliseconds(300))
                first.hangUp()
                try await Task.sleep(for: .milliseconds(300))
                #expect(backend.cancellations == 0)
                #expect(backend.calls == 1)
                second.hangUp()
                try await waitUntil(timeout: .seconds(5)) { backend.cancellations == 1 }
                #expect(backend.calls == 1)
            }
        }
    }
}
