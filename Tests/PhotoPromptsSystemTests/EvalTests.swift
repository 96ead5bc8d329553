import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import Testing

extension SystemTests {
    @Suite("photo-prompts eval: fixtures through the real backend, a table, JSON, and an exit code for CI")
    struct EvalTests {
        static let fixturesPath = repositoryPromptsDirectory + "/fixtures/photos.jsonl"

        /// The languages the app ships, as eval names them.

        @Test("eval reports the pass rate per language, each under its own rule: a Japanese range no reply can meet fails only Japanese")
        func passRatePerLanguage() async throws {
            let prompts = try TemporaryPrompts()
            try prompts.write("photo-journal/settings.json", #"{"candidate_count": 6, "word_ranges": {"ja": {"min": 40, "max": 60}}}"#)
            let output = scratchPath("eval.json")
            try await withStubLLM { stub in
                let eval = try ChildProcess(
                    try builtProduct("photo-prompts"),
                    arguments: ["eval", "--fixtures", Self.fixturesPath, "--output", output.path],
                    environment: stub.backendEnvironment(provider: "openai").merging(["PROMPTS_DIRECTORY": prompts.directory]) { $1 }
                )
                let (status, printed) = try await eval.waitForExit()
                #expect(status == 0, "\(printed)")
                #expect(printed.contains("  in ja "))
                let rates = JSONLookup(try JSONSerialization.jsonObject(with: Data(contentsOf: output)))["reports", 0, "pass_rate_by_language"]
                #expect(rates["ja"].double == 0)
                for language in LanguageFixtures.shipped where language != "ja" {
                    #expect(rates[.key(language)].double == 1, "\(language)")
                }
            }
        }

        @Test("Against stub-llm over HTTP, eval compares two templates side by side and writes every measure as JSON")
        func evalCompares() async throws {
            let output = scratchPath("eval.json")
            try await withStubLLM { stub in
                let eval = try ChildProcess(
                    try builtProduct("photo-prompts"),
                    arguments: [
                        "eval", "--fixtures", Self.fixturesPath, "--compare", "photo-journal-b", "--output", output.path, "--min-pass-rate", "0.9",
                    ],
                    environment: stub.backendEnvironment(provider: "openai").merging(["PROMPTS_DIRECTORY": repositoryPromptsDirectory]) { $1 }
                )
                let (status, printed) = try await eval.waitForExit()
                #expect(status == 0, "\(printed)")
                let fixtures = try EvalFixture.load(from: Self.fixturesPath)
                let fixtureCount = fixtures.count
                // stub-llm writes the shipped languages; for a Dutch or Polish user it writes English, which the gate
                // rejects as wrong_language, so those fixtures fall back, without a re-ask: telling a model it wrote
                // the wrong language does not make it write another.
                let unwritten = fixtures.filter { ["nl", "pl"].contains($0.request.locale.language) }.count
                #expect(unwritten == 2)
                #expect(await stub.calls == 2 * fixtureCount, "every fixture, for each template, is a real backend call")
                #expect(printed.contains("photo-journal@"))
                #expect(printed.contains("photo-journal-b@"))
                #expect(printed.contains("pass rate (word rule + checks)"))
                #expect(printed.contains("\(fixtureCount)/\(fixtureCount)"), "the progress bar reaches the end")

                let document = JSONLookup(try JSONSerialization.jsonObject(with: Data(contentsOf: output)))
                #expect(document["reports"].array.count == 2)
                let report = document["reports", 0]
                #expect(report["fixtures"].int == fixtureCount)
                #expect(report["fallback_rate"].double == Double(unwritten) / Double(fixtureCount))
                #expect((report["rejections"].value as? [String: Any]).map { Array($0.keys) } == ["wrong_language"])
                for language in LanguageFixtures.shipped {
                    #expect(report["pass_rate_by_language", .key(language)].double == 1, "\(language)")
                }
                #expect(report["results"].array.count == fixtureCount)
                for key in [
                    "reask_rate", "duplicates_in_answers", "repeated_across_photos", "metadata_mention_rate", "latency_p50_ms", "latency_p95_ms",
                    "near_repeats_across_photos", "near_duplicate_answers_by_language",
                ] {
                    #expect(!report[.key(key)].isNull, "\(key)")
                }
                #expect((report["metadata_mention_rate"].double ?? 0) > 0.2, "the stub writes about labels and places")
                // The tokens stub-llm reports for each call, summed: what a template costs per photo.
                let promptTokens = try #require(report["prompt_tokens"].int)
                let completionTokens = try #require(report["completion_tokens"].int)
                #expect(promptTokens > 100 * fixtureCount && completionTokens > 20 * fixtureCount)
                #expect(report["results", 0, "tokens"].int.map { $0 > 0 } == true)
                #expect(printed.contains("tokens per photo"))
            }
        }

        @Test("A missed threshold makes eval exit 1 and say which one")
        func thresholdFails() async throws {
            let fixtures = scratchPath("fixtures.jsonl")
            try Data(
                """
                {"name": "beach", "photo": {"labels": ["beach"], "location": {"name": "Praia da Rocha"}}}
                {"name": "empty", "photo": {}}

                """.utf8
            ).write(to: fixtures)
            let output = scratchPath("eval.json")
            // Two good questions, two too short, two too long: a third of candidates pass, and every request re-asks.
            try await withStubLLM(.mixed) { stub in
                let eval = try ChildProcess(
                    try builtProduct("photo-prompts"),
                    arguments: ["eval", "--fixtures", fixtures.path, "--output", output.path, "--min-pass-rate", "0.9", "--max-reask-rate", "0.5"],
                    environment: stub.backendEnvironment(provider: "openai").merging(["PROMPTS_DIRECTORY": repositoryPromptsDirectory]) { $1 }
                )
                let (status, printed) = try await eval.waitForExit()
                #expect(status == 1)
                #expect(printed.contains("FAILED: photo-journal@"))
                #expect(printed.contains("is below --min-pass-rate 0.9"))
                #expect(printed.contains("re-ask rate 1 is above --max-reask-rate 0.500"))
                let report = JSONLookup(try JSONSerialization.jsonObject(with: Data(contentsOf: output)))["reports", 0]
                #expect(report["reask_rate"].double == 1)
                #expect((report["rejections", "too_short"].int ?? 0) > 0)
                #expect((report["rejections", "too_long"].int ?? 0) > 0)
            }
        }

        @Test("A bad fixture line is refused naming the file, line and field")
        func badFixture() async throws {
            let fixtures = scratchPath("fixtures.jsonl")
            try Data("{\"name\": \"ok\", \"photo\": {}}\n{\"name\": \"bad\", \"photo\": {\"people_count\": -3}}\n".utf8).write(to: fixtures)
            let eval = try ChildProcess(
                try builtProduct("photo-prompts"),
                arguments: ["eval", "--fixtures", fixtures.path],
                environment: ["PROMPTS_DIRECTORY": repositoryPromptsDirectory]
            )
            let (status, printed) = try await eval.waitForExit()
            #expect(status != 0)
            #expect(printed.contains("\(fixtures.path):2 (bad): photo.people_count"))
        }
    }
}
