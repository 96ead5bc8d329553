import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

extension SystemTests {
    @Suite("The admin API: key-protected templates, render and per-version stats")
    struct AdminTests {
        @Test("Without ADMIN_API_KEY, /admin does not exist: 404 with the usual JSON error")
        func disabledWithoutKey() async throws {
            var environment = testEnvironment(stub: nil)
            environment["ADMIN_API_KEY"] = nil
            try await withService(environment) { client in
                for (method, path) in [("GET", "/templates"), ("POST", "/templates/reload"), ("GET", "/stats")] {
                    let reply = try await client.admin(method, path)
                    #expect(reply.status == 404, "\(method) \(path)")
                    #expect(reply.errorCode == "not_found")
                }
            }
        }

        @Test(
            "A missing, wrong or differently sized key is 401; the right one is 200",
            arguments: [
                (nil as String?, 401), ("wrong-key-0123456789xx", 401), (testAdminKey + "x", 401), (String(testAdminKey.dropLast()), 401),
                (testAdminKey, 200),
            ]
        )
        func keyRequired(key: String?, status: Int) async throws {
            let prompts = try TemporaryPrompts()
            try await withService(operatorEnvironment(stub: nil, prompts: prompts)) { client in
                for (method, path) in [("GET", "/templates"), ("POST", "/templates/reload"), ("GET", "/stats")] {
                    let reply = try await client.admin(method, path, key: key)
                    #expect(reply.status == status, "\(method) \(path)")
                    if status == 401 { #expect(reply.errorCode == "unauthorized") }
                }
            }
        }

        @Test("POST /admin/templates/{name}/render shows the messages a photo would send, with the template as on disk")
        func renderRoute() async throws {
            let prompts = try TemporaryPrompts()
            try prompts.addVariant("draft", marker: "Draft instructions, not live yet.")
            try await withService(operatorEnvironment(stub: nil, prompts: prompts)) { client in
                let reply = try await client.admin("POST", "/templates/draft/render", body: samplePhotoRequest)
                #expect(reply.status == 200)
                let body = reply.lookup
                #expect(body["template", "name"].string == "draft")
                #expect(body["system"].string?.contains("Draft instructions, not live yet.") == true)
                #expect(body["user"].string?.contains("Photo taken at Praia da Rocha, Portimão, Portugal") == true)
                // 17:42 UTC at 8.5° W is 16:42 solar time.
                #expect(body["user"].string?.contains("in the afternoon") == true)
                #expect(body["parameters", "candidate_count"].int == 8)

                let live = try await client.admin("POST", "/templates/photo-journal-b/render", body: samplePhotoRequest).lookup
                let fallbacks = live["fallbacks"].array.compactMap { $0 as? String }
                #expect(fallbacks.first == "What drew you to Praia da Rocha on this afternoon, and what stayed with you?")

                let unknown = try await client.admin("POST", "/templates/nowhere/render", body: samplePhotoRequest)
                #expect(unknown.status == 404)
                #expect(unknown.errorCode == "template_not_found")
                let escape = try await client.admin("POST", "/templates/..%2F..%2Fetc/render", body: samplePhotoRequest)
                #expect(escape.status == 404)

                try prompts.write("draft/system.mustache", "{{#unclosed}}\n")
                let broken = try await client.admin("POST", "/templates/draft/render", body: samplePhotoRequest)
                #expect(broken.status == 422)
                #expect(broken.errorDetails.first?.hasPrefix("draft/system.mustache:") == true)

                let badPhoto = try await client.admin("POST", "/templates/draft/render", body: #"{"photo": {"people_count": -1}}"#)
                #expect(badPhoto.status == 400)
                #expect(badPhoto.errorDetails == ["photo.people_count"])
            }
        }

        @Test(
            "GET /admin/stats counts per variant and version: requests, sources, fallbacks, re-asks, rejections, selections; they survive a restart"
        )
        func statsPerVersion() async throws {
            let prompts = try TemporaryPrompts()
            try prompts.addVariant("photo-journal-b", marker: "Variant B.")
            try prompts.setVariants(["photo-journal": 50, "photo-journal-b": 50])
            let databasePath = temporaryDatabasePath()
            let environment = try await withStubLLM { stub in operatorEnvironment(stub: stub, prompts: prompts, databasePath: databasePath) }
            let expected = try await withStubLLM { stub in
                var environment = environment
                environment["LLM_BASE_URL"] = stub.baseURL
                return try await withService(environment) { client in
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
            }
            // A restart: the counts were flushed at shutdown and are read back from the same file.
            try await withService(environment) { client in
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
}
