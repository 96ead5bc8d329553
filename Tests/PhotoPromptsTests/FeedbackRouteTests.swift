import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

/// What feedback refuses, and how it names the field.
@Suite("Feedback refused through the router: unknown prompts and sessions, bad bodies")
struct FeedbackRouteTests {
    @Test("Feedback for a prompt the session never showed, or for an unknown session, is 404")
    func feedbackForUnknownPrompt() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let first = try await client.startSession()
            let second = try await client.startSession()
            let foreign = try await client.feedback(first.sessionID, promptID: second.prompts[0].id)
            #expect(foreign.status == 404)
            #expect(foreign.errorCode == "prompt_not_found")
            let madeUp = try await client.feedback(first.sessionID, promptID: "p_madeUp")
            #expect(madeUp.errorCode == "prompt_not_found")
            let noSession = try await client.feedback("s_unknown", promptID: first.prompts[0].id)
            #expect(noSession.status == 404)
            #expect(noSession.errorCode == "session_not_found")
        }
    }

    @Test(
        "Bad feedback bodies are 400 naming the field",
        arguments: [
            (#"{"prompt_id": "p_1", "action": "liked"}"#, "action"),
            (#"{"action": "selected"}"#, "prompt_id"),
            (#"{"prompt_id": 7, "action": "selected"}"#, "prompt_id"),
            (#"{"prompt_id": "", "action": "selected"}"#, "prompt_id"),
            (#"{"prompt_id": "p_1"}"#, "action"),
        ]
    )
    func badFeedback(body: String, field: String) async throws {
        try await withRouterService(baseEnvironment()) { client in
            let session = try await client.startSession()
            let reply = try await client.post("/v1/sessions/\(session.sessionID)/feedback", json: body)
            #expect(reply.status == 400)
            #expect(reply.errorDetails == [field])
        }
    }
}
