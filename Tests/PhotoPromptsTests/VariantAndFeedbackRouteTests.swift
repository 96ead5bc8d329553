import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

@Suite("A/B variants are sticky per session, and feedback says which prompts users pick")
struct VariantAndFeedbackRouteTests {
    @Test("Weighted variants split new sessions, each session keeps its variant on refresh, and a weight of 0 is never drawn")
    func variantsAreSticky() async throws {
        let prompts = try TemporaryPrompts()
        try prompts.addVariant("photo-journal-b", marker: "Variant B.")
        try prompts.addVariant("photo-journal-off", marker: "Never drawn.")
        try prompts.setVariants(["photo-journal": 50, "photo-journal-b": 50, "photo-journal-off": 0])
        let stub = StubBehaviourBackend()
        try await withRouterService(operatorEnvironment(prompts: prompts, base: burstEnvironment()), backends: [stub]) { client in
            let sessions = try await withThrowingTaskGroup(of: PromptsResponse.self) { group in
                for index in 0..<40 {
                    group.addTask { try await client.startSession(#"{"photo": {"labels": ["tree \#(index)"]}}"#) }
                }
                return try await group.reduce(into: [PromptsResponse]()) { $0.append($1) }
            }
            let variants = Set(sessions.map(\.template.variant))
            #expect(variants == ["photo-journal", "photo-journal-b"])
            #expect(sessions.allSatisfy { $0.template.name == "photo-journal" })
            for session in sessions.prefix(10) {
                let refreshed = try await client.refresh(session.sessionID).decode(PromptsResponse.self)
                #expect(refreshed.template.variant == session.template.variant)
                #expect(refreshed.template.version == session.template.version)
                let stored = try await client.session(session.sessionID).lookup
                #expect(stored["template", "variant"].string == session.template.variant)
            }
            let status = try await client.admin("GET", "/templates").lookup
            let listed = status["live", "variants"].array.compactMap { JSONLookup($0)["name"].string }
            #expect(listed == ["photo-journal", "photo-journal-b", "photo-journal-off"])
        }
    }

    @Test("Feedback on a shown prompt is recorded once, however often and however concurrently it is sent")
    func feedbackIsIdempotent() async throws {
        let prompts = try TemporaryPrompts()
        let stub = StubBehaviourBackend()
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [stub]) { client in
            let session = try await client.startSession()
            let prompt = try #require(session.prompts.first)
            let replies = try await withThrowingTaskGroup(of: ServiceClient.Reply.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await client.feedback(session.sessionID, promptID: prompt.id) }
                }
                return try await group.reduce(into: [ServiceClient.Reply]()) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 200 })
            let recordedAt = Set(replies.compactMap { $0.lookup["recorded_at"].string })
            #expect(recordedAt.count == 1)
            #expect(replies.first?.lookup["action"].string == "selected")
            #expect(replies.first?.lookup["prompt_id"].string == prompt.id)

            let dismissed = try await client.feedback(session.sessionID, promptID: session.prompts[1].id, action: "dismissed")
            #expect(dismissed.status == 200)

            let stats = try await client.admin("GET", "/stats?template=photo-journal").lookup
            let version = stats["versions", 0]
            #expect(version["feedback", "selected"].int == 1)
            #expect(version["feedback", "dismissed"].int == 1)
            #expect(version["sessions_with_selection"].int == 1)
        }
    }
}
