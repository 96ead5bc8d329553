import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

@Suite("The operators' console: its page, and the JSON its views read")
struct ConsoleRouteTests {
    private static func session(_ client: ServiceClient, locale: String, user: String, label: String) async throws -> PromptsResponse {
        try await client.startSession(
            #"{"locale": "\#(locale)", "user_id": "\#(user)", "photo": {"labels": ["\#(label)"], "caption": "Private caption of \#(user)"}}"#
        )
    }

    @Test("GET /admin/quality and GET /admin/stats give the measures worked out here from the answers; no caption or user id")
    func qualityPerLanguage() async throws {
        let prompts = try TemporaryPrompts()
        let backend = StubBehaviourBackend()
        // The hours the sessions below fall in: one, or two when the run crosses an hour's start.
        let firstHour = Int(Date().timeIntervalSince1970) / 3600
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [backend]) { client in
            var spanish: [PromptsResponse] = []
            for index in 0..<3 { spanish.append(try await Self.session(client, locale: "es-ES", user: "u_es\(index)", label: "playa \(index)")) }
            let japanese = try await Self.session(client, locale: "ja-JP", user: "u_ja", label: "桜")
            let japanese2 = try await Self.session(client, locale: "ja-JP", user: "u_ja2", label: "寿司")
            // One answer of fallback cards only: the model writes nothing long enough, asked twice.
            await backend.set(.short)
            let english = try await Self.session(client, locale: "en-US", user: "u_en", label: "kite")
            await backend.set(.normal)
            #expect(english.prompts.allSatisfy { $0.source == .fallback })
            let refresh = try await client.asUser("u_es0").refresh(spanish[0].sessionID)
            #expect(refresh.status == 200)
            #expect(try await client.asUser("u_ja").feedback(japanese.sessionID, promptID: japanese.prompts[0].id).status == 200)
            // The oracle: every measure worked out here from what the answers said, not by the service's own sums.
            let answers = spanish + [japanese, japanese2, english, try refresh.decode(PromptsResponse.self)]
            let cards = answers.flatMap(\.prompts)
            let expected: [String: Double] = [
                "sessions": 6, "requests": 7, "cards_shown": Double(cards.count),
                "model_card_share": Double(cards.count { $0.source != .fallback }) / Double(cards.count),
                "fallback_rate": Double(answers.count { $0.prompts.contains { $0.source == .fallback } }) / 7,
                "selection_rate": 1.0 / 6,
                // Every call the backend received, the re-ask for the short replies included.
                "model_calls_per_session": Double(await backend.calls) / 6,
            ]
            // Whole-answer fallbacks by the reason each answer gave, and feedback by the action sent.
            let reasons = answers.filter { $0.source == .fallback }.map { $0.fallbackReason?.rawValue ?? "none" }
            let expectedCounts: [String: [String: Int]] = [
                "fallbacks_by_reason": Dictionary(reasons.map { ($0, 1) }, uniquingKeysWith: +), "feedback": ["selected": 1],
            ]

            let lastHour = Int(Date().timeIntervalSince1970) / 3600
            let all = try await client.admin("GET", "/quality?window=1h&bucket=hour")
            #expect(all.status == 200)
            #expect(all.lookup["bucket"].string == "hour")
            let totals = all.lookup["versions", 0, "totals"]
            #expect(totals["sessions"].int == 6)
            #expect(totals["requests"].int == 7)
            let points = all.lookup["versions", 0, "points"].array
            #expect((1...(1 + lastHour - firstHour)).contains(points.count))

            let es = try await client.admin("GET", "/quality?window=1h&language=es")
            #expect(es.lookup["language"].string == "es")
            #expect(es.lookup["versions", 0, "totals", "sessions"].int == 3)
            #expect(es.lookup["versions", 0, "totals", "refreshes"].int == 1)
            #expect(es.lookup["versions", 0, "totals", "cards_shown"].int == 12)
            let ja = try await client.admin("GET", "/quality?window=1h&language=ja")
            #expect(ja.lookup["versions", 0, "totals", "sessions"].int == 2)
            #expect(ja.lookup["versions", 0, "totals", "sessions_with_selection"].int == 1)
            #expect(ja.lookup["versions", 0, "totals", "first_answer_p50_ms"].double != nil)
            let german = try await client.admin("GET", "/quality?window=1h&language=de")
            #expect(german.lookup["versions"].array.isEmpty)

            let stats = try await client.versionStats()
            for (measure, value) in expected {
                #expect(abs((totals[.key(measure)].double ?? -1) - value) < 1e-9, "/admin/quality \(measure)")
                #expect(abs((stats[.key(measure)].double ?? -1) - value) < 1e-9, "/admin/stats \(measure)")
            }
            for (measure, counts) in expectedCounts {
                for body in [totals, stats] {
                    #expect((body[.key(measure)].value as? [String: Any])?.mapValues { $0 as? Int } == counts.mapValues { $0 }, "\(measure)")
                }
            }
            for reply in [all, es, ja] {
                let body = String(decoding: reply.body, as: UTF8.self)
                #expect(!body.contains("Private caption") && !body.contains("u_es0") && !body.contains("u_ja"))
            }
        }
    }

    @Test("36 sessions at once in three languages: each language's count is exact, and the languages add up to the whole")
    func concurrentLanguages() async throws {
        try await withRouterService(
            operatorEnvironment(prompts: try TemporaryPrompts(), base: burstEnvironment()),
            backends: [StubBehaviourBackend()]
        ) { client in
            let locales = ["es-MX", "fr-FR", "ko-KR"]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<36 {
                    group.addTask {
                        _ = try await Self.session(client, locale: locales[index % 3], user: "u_\(index)", label: "lantern \(index)")
                    }
                }
                try await group.waitForAll()
            }
            var sum = 0
            for language in ["es", "fr", "ko"] {
                let sessions = try await client.admin("GET", "/quality?window=1h&language=\(language)").lookup["versions", 0, "totals", "sessions"]
                    .int
                #expect(sessions == 12, "\(language)")
                sum += sessions ?? 0
            }
            #expect(try await client.admin("GET", "/quality?window=1h").lookup["versions", 0, "totals", "sessions"].int == sum)
        }
    }

    @Test("Console queries name the field they cannot read", arguments: ["bucket=week", "language=%21%21", "window=forever", "template=..%2Fetc"])
    func badQueries(query: String) async throws {
        try await withRouterService(operatorEnvironment(prompts: try TemporaryPrompts())) { client in
            for path in ["/quality", "/variants"] {
                let reply = try await client.admin("GET", "\(path)?\(query)")
                #expect(reply.status == 400)
                #expect(reply.errorDetails == [String(query.prefix { $0 != "=" })])
            }
        }
    }

    @Test("GET /admin/versions keeps every version's files; any version renders on a fixture photo with its grammar")
    func versionsAndRender() async throws {
        let prompts = try TemporaryPrompts()
        try prompts.write("fixtures/photos.jsonl", try String(contentsOfFile: repositoryPromptsDirectory + "/fixtures/photos.jsonl", encoding: .utf8))
        try await withRouterService(operatorEnvironment(prompts: prompts), backends: [StubBehaviourBackend()]) { client in
            let before = try await client.startSampleSession()
            try prompts.append("photo-journal/system.mustache", lines: ["Ask about the light."])
            #expect(try await client.admin("POST", "/templates/reload").status == 200)
            let after = try await client.asUser("u_other").startSampleSession()
            #expect(before.template.version != after.template.version)

            let report = try await client.admin("GET", "/versions")
            #expect(report.status == 200)
            let versions = report.lookup["versions"].array.map(JSONLookup.init)
            #expect(versions.map { $0["version"].string } == [before.template.version, after.template.version])
            #expect(versions.map { $0["sessions"].int } == [1, 1])
            #expect(versions[0]["files", "system.mustache"].string?.contains("Ask about the light.") == false)
            #expect(versions[1]["files", "system.mustache"].string?.contains("Ask about the light.") == true)
            #expect(report.lookup["serving", 0, "version"].string == after.template.version)

            let old = try await client.admin("GET", "/versions/\(before.template.version)/render?fixture=birthday")
            #expect(old.status == 200)
            #expect(old.lookup["system"].string?.contains("Ask about the light.") == false)
            #expect(old.lookup["user"].string?.contains("Toronto") == true)
            #expect(old.lookup["grammar"].string?.hasPrefix("root ::=") == true)
            let new = try await client.admin("GET", "/versions/\(after.template.version)/render")
            #expect(new.lookup["system"].string?.contains("Ask about the light.") == true)

            let unknown = try await client.admin("GET", "/versions/000000000000/render")
            #expect(unknown.status == 404)
            #expect(unknown.lookup["error", "code"].string == "version_not_found")
            let noFixture = try await client.admin("GET", "/versions/\(after.template.version)/render?fixture=nope")
            #expect(noFixture.lookup["error", "code"].string == "fixture_not_found")
            #expect(try await client.admin("GET", "/fixtures").lookup["fixtures", 0, "name"].string == "beach")
        }
    }

    @Test("GET /admin/backends counts each backend's calls and errors as /metrics does, with its breaker and mode")
    func backends() async throws {
        let failing = StubBehaviourBackend(.serverError, provider: "openai", model: "primary")
        let good = StubBehaviourBackend(provider: "stub", model: "second")
        try await withRouterService(operatorEnvironment(prompts: try TemporaryPrompts()), backends: [failing, good]) { client in
            for index in 0..<3 { _ = try await client.asUser("u_\(index)").startSession(#"{"photo": {"labels": ["bridge \#(index)"]}}"#) }
            let report = try await client.admin("GET", "/backends")
            #expect(report.status == 200)
            let first = report.lookup["backends", 0]
            #expect(first["backend"].string == "openai/primary")
            #expect(first["calls"].int == 3)
            #expect((first["errors"].value as? [String: Any])?.values.compactMap { $0 as? Int }.reduce(0, +) == 3)
            #expect(report.lookup["backends", 1, "outcomes", "ok"].int == 3)
            #expect(report.lookup["backends", 1, "breaker"].string == "closed")
            #expect(try await client.metricsText().contains(#"photoprompts_backend_calls_total{backend="stub/second",outcome="ok"} 3"#))
        }
    }

    @Test("The page and its files are served without the key; its data is not; no admin key, no console")
    func page() async throws {
        let chart = scratchPath("chart").appendingPathComponent("chart.min.js")
        try FileManager.default.createDirectory(at: chart.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "/* Chart.js stand-in */".write(to: chart, atomically: true, encoding: .utf8)
        var environment = operatorEnvironment(prompts: try TemporaryPrompts())
        environment["CONSOLE_DIRECTORY"] = repositoryConsoleDirectory
        environment["CONSOLE_CHART_JS"] = chart.path
        try await withRouterService(environment) { client in
            let page = try await client.send("GET", "/admin/console")
            #expect(page.status == 200)
            #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(String(decoding: page.body, as: UTF8.self).contains(#"src="/admin/console/chart.js""#))
            #expect(try await client.send("GET", "/admin/console/console.js").headers["content-type"]?.hasPrefix("text/javascript") == true)
            #expect(String(decoding: try await client.send("GET", "/admin/console/chart.js").body, as: UTF8.self) == "/* Chart.js stand-in */")
            #expect(try await client.send("GET", "/admin/console/secrets.txt").status == 404)
            #expect(try await client.admin("GET", "/quality", key: nil).status == 401)
            #expect(try await client.admin("GET", "/quality", key: "wrong-key-0123456789").status == 401)
        }
        environment["CONSOLE_CHART_JS"] = chart.path + ".missing"
        try await withRouterService(environment) { client in
            let missing = try await client.send("GET", "/admin/console/chart.js")
            #expect(missing.status == 404)
            #expect(missing.lookup["error", "message"].string?.contains("libjs-chart.js") == true)
        }
        environment["ADMIN_API_KEY"] = nil
        let withoutKey = try await withRouterService(environment) { client in try await client.send("GET", "/admin/console") }
        #expect(withoutKey.status == 404)
    }
}
