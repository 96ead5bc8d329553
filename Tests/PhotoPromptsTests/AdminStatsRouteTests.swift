import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

@Suite("The admin API: key-protected templates, render and per-version stats")
struct AdminStatsRouteTests {
    @Test(
        "GET /admin/stats counts per variant and version: requests, sources, fallbacks, re-asks, rejections, selections; they survive a restart"
    )
    func statsPerVersion() async throws {
        let prompts = try TemporaryPrompts()
        try prompts.addVariant("photo-journal-b", marker: "Variant B.")
        try prompts.setVariants(["photo-journal": 50, "photo-journal-b": 50])
        let databasePath = temporaryDatabasePath()
        let environment = operatorEnvironment(prompts: prompts, base: baseEnvironment(databasePath: databasePath))
        let stub = StubBehaviourBackend()
        let expected = try await withRouterService(environment, backends: [stub]) { client in
            var sessions: [PromptsResponse] = []
            for index in 0..<12 {
                sessions.append(try await client.startSession(#"{"photo": {"labels": ["kite \#(index)"]}}"#))
            }
            // Mixed answers: two good questions, two too short, two too long, so every request re-asks.
            await stub.set(.mixed)
            for index in 0..<4 {
                sessions.append(try await client.startSession(#"{"photo": {"labels": ["lake \#(index)"]}}"#))
            }
            await stub.set(.short)
            for index in 0..<4 {
                sessions.append(try await client.startSession(#"{"photo": {"labels": ["hill \#(index)"]}}"#))
            }
            for session in sessions.prefix(5) {
                _ = try await client.feedback(session.sessionID, promptID: session.prompts[0].id)
                _ = try await client.feedback(session.sessionID, promptID: session.prompts[1].id)
            }
            return sessions
        }
        // A restart: the counts were flushed at shutdown and are read back from the same file.
        try await withRouterService(environment) { client in
            let reply = try await client.admin("GET", "/stats?template=photo-journal&window=2h")
            #expect(reply.status == 200)
            let versions = reply.lookup["versions"].array.map(JSONLookup.init)
            #expect(versions.count == 2)
            for version in versions {
                let variant = try #require(version["variant"].string)
                let mine = expected.filter { $0.template.variant == variant }
                #expect(version["version"].string == mine.first?.template.version)
                #expect(version["requests"].int == mine.count)
                #expect(version["sessions"].int == mine.count)
                #expect(version["sources", "fallback"].int ?? 0 == mine.filter { $0.source == .fallback }.count)
                #expect(version["fallbacks_by_reason", "invalid_output"].int ?? 0 == mine.filter { $0.fallbackReason == .invalidOutput }.count)
                let selected = expected.prefix(5).filter { $0.template.variant == variant }.count
                #expect(version["sessions_with_selection"].int ?? 0 == selected)
                #expect(abs((version["selection_rate"].double ?? -1) - Double(selected) / Double(mine.count)) < 1e-9)
                // The variant is drawn at random: only a variant that got a mixed or short answer has rejections.
                let badAnswers = expected.dropFirst(12).filter { $0.template.variant == variant }.count
                #expect(((version["rejections", "too_short"].int ?? 0) > 0) == (badAnswers > 0))
            }
            let totalReasks = versions.map { ($0["reask_rate"].double ?? 0) }.reduce(0, +)
            #expect(totalReasks > 0)

            let badWindow = try await client.admin("GET", "/stats?window=forever")
            #expect(badWindow.status == 400)
            #expect(badWindow.errorDetails == ["window"])
        }
    }
}
