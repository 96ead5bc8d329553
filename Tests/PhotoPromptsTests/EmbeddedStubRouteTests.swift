import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

/// The service with no backend configured: it still answers, with the embedded stub's photo-aware prompts.
@Suite("Offline: health and the embedded stub, through the router")
struct EmbeddedStubRouteTests {
    @Test("GET /healthz answers 200")
    func health() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let reply = try await client.send("GET", "/healthz")
            #expect(reply.status == 200)
            #expect(try reply.json["status"] as? String == "ok")
        }
    }

    @Test("The embedded stub backend answers offline with photo-aware prompts")
    func embeddedStub() async throws {
        try await withRouterService(baseEnvironment()) { client in
            let answer = try await client.startSession(#"{"photo": {"labels": ["birthday cake"], "location": {"name": "Lisbon"}}}"#)
            #expect(answer.source == .model)
            #expect(answer.prompts.count == 3)
            #expect(answer.prompts.contains { $0.text.contains("birthday cake") || $0.text.contains("Lisbon") })
        }
    }
}
