import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import Synchronization
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

        /// A database of its own for each test: a user's history in a shared one would change what the next test is shown.
        static var environment: [String: String] {
            testEnvironment(stub: nil).merging(["LLM_TIMEOUT": "10", "ADMIN_API_KEY": testAdminKey]) { $1 }
        }

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

        @Test("A refresh whose client hangs up costs no refresh: its slot is given back, and the next refresh is the first counted")
        func refreshHangUp() async throws {
            // The refresh's request names the prompts already shown; the first such call is held.
            let heldOnce = Mutex(0)
            let fresh = [
                "Which sound from this afternoon would you most like to hear again?",
                "What were you thinking about while you walked along the water here?",
                "Who would you most like to bring back to this place next summer?",
            ]
            let backend = ScriptedBackend(
                name: "slow",
                replies: [Self.replies, Self.replies, fresh],
                usage: TokenUsage(prompt: 200, completion: 48),
                holds: { request in
                    guard request.messages.contains(where: { $0.content.contains("quiet beach sound") }) else { return false }
                    return heldOnce.withLock { count in
                        count += 1
                        return count == 1
                    }
                }
            )
            // One refresh allowed: a slot the departed refresh kept would refuse the next one.
            let environment = Self.environment.merging(["SESSIONS_REFRESH_LIMIT": "1"]) { $1 }
            try await withService(environment, backends: [backend]) { client in
                let first = try await client.startSession(#"{"locale": "en-US", "photo": {"labels": ["beach"]}}"#)
                let connection = try RawConnection(port: try client.livePort)
                try await connection.send(
                    "POST /v1/sessions/\(first.sessionID)/refresh HTTP/1.1\r\nHost: x\r\nX-User-ID: \(sampleUserID)\r\nContent-Length: 0\r\n\r\n"
                )
                try await waitUntil(timeout: .seconds(5)) { backend.calls == 2 }
                connection.hangUp()
                try await waitUntil(timeout: .seconds(5)) { backend.cancellations == 1 }
                // The slot comes back as the cancelled refresh winds down; until then a refresh is told to wait (409).
                var next = try await client.refresh(first.sessionID)
                try await waitUntil(timeout: .seconds(5)) {
                    guard next.status == 409 else { return true }
                    next = (try? await client.refresh(first.sessionID)) ?? next
                    return next.status != 409
                }
                #expect(next.status == 200, "\(String(decoding: next.body, as: UTF8.self))")
                #expect(try next.decode(PromptsResponse.self).refreshesUsed == 1)
                // No round was kept for the refresh no one saw: the first answer, then the one just served.
                #expect(try await client.session(first.sessionID).decode(SessionResponse.self).rounds.count == 2)
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
