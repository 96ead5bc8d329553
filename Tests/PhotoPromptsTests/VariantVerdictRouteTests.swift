import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import PromptGeneration
import PromptStores
import Testing

@Suite("The console's A/B verdict and its stored eval runs")
struct VariantVerdictRouteTests {
    private static let a = TemplateIdentity(name: "photo-journal", variant: "photo-journal", version: "a-1")
    private static let b = TemplateIdentity(name: "photo-journal", variant: "photo-journal-b", version: "b-1")

    /// Sessions and selections per arm and language, written as the service counts them, in the current hour.
    private static func seed(_ store: any PromptStore, _ arms: [(TemplateIdentity, String, sessions: Int, selected: Int)]) async throws {
        let bucket = StatsCounter.bucket(for: Date())
        try await store.addStats(
            arms.flatMap { template, language, sessions, selected in
                [
                    StatsCounter(bucket: bucket, template: template, language: language, name: "sessions", value: sessions),
                    StatsCounter(bucket: bucket, template: template, language: language, name: "requests", value: sessions),
                    StatsCounter(bucket: bucket, template: template, language: language, name: "sessions_selected", value: selected),
                ]
            }
        )
    }

    private static func variantsEnvironment() throws -> [String: String] {
        let prompts = try TemporaryPrompts()
        try prompts.addVariant("photo-journal-b", marker: "Variant B.")
        try prompts.setVariants(["photo-journal": 50, "photo-journal-b": 50])
        return operatorEnvironment(prompts: prompts)
    }

    @Test("A winner is named only with enough sessions and intervals apart; each arm's share has its Wilson interval")
    func verdict() async throws {
        let database = try InMemoryDatabase()
        try await Self.seed(
            try database.open(),
            [(Self.a, "es", 500, 300), (Self.b, "es", 500, 200), (Self.a, "ja", 40, 20), (Self.b, "ja", 41, 25)]
        )
        try await withRouterService(try Self.variantsEnvironment(), store: try database.open()) { client in
            let reply = try await client.admin("GET", "/variants?window=2h")
            #expect(reply.status == 200)
            let overall = reply.lookup["overall"]
            #expect(overall["winner"].string == "photo-journal")
            #expect(overall["sentence"].string?.hasPrefix("All languages: photo-journal is ahead of photo-journal-b") == true)
            let armA = overall["arms", 0]
            #expect(armA["variant"].string == "photo-journal")
            #expect(armA["sessions"].int == 540)
            // 320 of 540 and 225 of 541, against Wilson's interval worked out apart from the service.
            let shareA = armA["measures", "selection_rate"]
            #expect(abs((shareA["low"].double ?? 0) - 0.5506) < 1e-4 && abs((shareA["high"].double ?? 0) - 0.6332) < 1e-4)
            let shareB = overall["arms", 1, "measures", "selection_rate"]
            #expect(abs((shareB["low"].double ?? 0) - 0.3751) < 1e-4 && abs((shareB["high"].double ?? 0) - 0.4579) < 1e-4)
            #expect(shareB["interval"].string == "wilson")

            let languages = reply.lookup["languages"].array.map(JSONLookup.init)
            #expect(languages.map { $0["language"].string } == ["es", "ja"])
            #expect(languages[0]["winner"].string == "photo-journal")
            #expect(languages[1]["winner"].isNull)
            #expect(languages[1]["sentence"].string?.hasPrefix("Japanese: 40 sessions in photo-journal and 41 in photo-journal-b") == true)
            #expect(languages[1]["sentence"].string?.contains("fewer than 100 sessions") == true)

            let japanese = try await client.admin("GET", "/variants?window=2h&language=ja")
            #expect(japanese.lookup["overall", "winner"].isNull)
            #expect(japanese.lookup["overall", "arms", 1, "sessions"].int == 41)
        }
    }

    @Test("Arms whose intervals overlap get no winner, however many sessions; a lone arm has nothing to compare")
    func noWinner() async throws {
        let database = try InMemoryDatabase()
        try await Self.seed(try database.open(), [(Self.a, "en", 400, 200), (Self.b, "en", 400, 210)])
        try await withRouterService(try Self.variantsEnvironment(), store: try database.open()) { client in
            let overall = try await client.admin("GET", "/variants").lookup["overall"]
            #expect(overall["winner"].isNull)
            #expect(overall["sentence"].string?.contains("the 95 % intervals overlap") == true)
        }
        let lone = try InMemoryDatabase()
        try await Self.seed(try lone.open(), [(Self.a, "en", 400, 200)])
        try await withRouterService(try Self.variantsEnvironment(), store: try lone.open()) { client in
            let overall = try await client.admin("GET", "/variants").lookup["overall"]
            #expect(overall["sentence"].string == "All languages: only photo-journal has sessions in this range; nothing to compare yet.")
        }
    }

    @Test("An eval run stored as `photo-prompts eval --store` does is listed by GET /admin/evals, per language")
    func storedEvalRuns() async throws {
        let path = temporaryDatabasePath()
        let environment = operatorEnvironment(prompts: try TemporaryPrompts(), base: baseEnvironment(databasePath: path))
        let fixtures = try EvalFixture.load(from: repositoryPromptsDirectory + "/fixtures/photos.jsonl")
        let outcomes = fixtures.prefix(4).map { fixture in
            let prompt = ValidPrompt(text: "What did you feel when you first saw this place?", wordCount: 10)
            return (fixture: fixture, generation: Generation.prompts([prompt], from: .model), latency: Duration.milliseconds(120))
        }
        let report = EvalReport(template: Self.a, outcomes: Array(outcomes))
        let stored = try await EvalRunArchive.store(
            [report],
            commit: "abc1234",
            model: "stub/stub-writer-1",
            configuration: try configuration(environment),
            logger: .init(label: "test")
        )
        let runs = try await withRouterService(environment) { client in try await client.admin("GET", "/evals") }
        #expect(runs.status == 200)
        let run = runs.lookup["runs", 0]
        #expect(run["id"].string == stored.first?.id)
        #expect(run["commit"].string == "abc1234")
        #expect(run["template", "version"].string == "a-1")
        #expect(run["fixtures"].int == 4)
        let languages = (run["languages"].value as? [String: Any]) ?? [:]
        #expect(languages.values.compactMap { ($0 as? [String: Any])?["fixtures"] as? Int }.reduce(0, +) == 4)
        #expect(!String(decoding: runs.body, as: UTF8.self).contains("first saw this place"), "the stored run keeps aggregates, not texts")
    }
}
