import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

extension SystemTests {
    /// CI's real-model check: SmolLM2-135M-Instruct served by llama.cpp's `llama-server` (both built and fetched by
    /// `make test`, see scripts/model/), the shipped template with a fixed seed, a few photos across languages. It
    /// asserts what cannot flake: llama-server compiles the grammar of every shipped language, no card shown fails the gate, every answer
    /// is in time, a language SmolLM2 does not write gets the fallback copy without a model call, and the share of
    /// English cards from the model stays above the floor below. docs/QUALITY.md has the full figures.
    @Suite("A real model in the loop: SmolLM2 on llama-server", .tags(.slow), .serialized)
    struct RealModelTests {
        /// The least share of first-answer English cards the model must fill, greedy, on these photos. The measured
        /// share is in docs/QUALITY.md; the floor sits well below it, so only a real regression crosses it. Greedy,
        /// these photos measured 0.67 with one-word openers, 1.0 with the two-word ones, and 0.83 with the English
        /// example about the people (the run prints it).
        static let englishFloor = 0.75

        static let shippedLocales = ["en", "es", "pt", "fr", "de", "it", "ar", "hi", "ja", "ko", "th", "zh-Hans", "zh-Hant"]

        static let englishPhotos = [
            #"{"locale": "en-US", "photo": {"location": {"name": "Praia da Rocha", "locality": "Portimão", "country": "Portugal"}, "labels": ["beach", "sunset", "dog"], "people_count": 2}}"#,
            #"{"locale": "en-GB", "photo": {"labels": ["birthday cake", "candles", "balloons"], "people_count": 6, "caption": "Mia turns seven"}}"#,
            #"{"locale": "en-US", "photo": {"location": {"locality": "Kyoto", "country": "Japan"}, "labels": ["temple", "cherry blossom"]}}"#,
            #"{"locale": "en-US", "photo": {"labels": ["mountain", "snow", "hiking boots"], "people_count": 1}}"#,
            #"{"locale": "en-US", "photo": {}}"#,
            #"{"locale": "en-AU", "photo": {"labels": ["kitchen", "bread", "flour"], "caption": "First sourdough"}}"#,
        ]

        static let otherPhotos = ["es-ES", "de-DE", "ja-JP", "zh-Hans", "ar"].map {
            #"{"locale": "\#($0)", "photo": {"labels": ["beach", "dog"], "people_count": 2}}"#
        }

        /// The model's files, or nil (the suite then says how to get them) where `make test` did not fetch them.
        static var model: (server: URL, weights: URL)? {
            let folder = URL(fileURLWithPath: repositoryDirectory).appendingPathComponent(".models")
            let server = folder.appendingPathComponent("bin/llama-server")
            let weights = folder.appendingPathComponent("smollm2.gguf")
            guard FileManager.default.isExecutableFile(atPath: server.path), FileManager.default.fileExists(atPath: weights.path) else {
                return nil
            }
            return (server, weights)
        }

        /// Runs `body` with SmolLM2 served on a free loopback port.
        static func withModel(_ body: (String) async throws -> Void) async throws {
            guard let model else {
                try MissingDependency.skipOrFail("llama-server or SmolLM2 in .models/: `make test` builds and fetches them (make llama-server models)")
            }
            let port = try freeLoopbackPort()
            let server = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/nice"),
                arguments: [
                    "-n", "10", model.server.path, "-m", model.weights.path, "--host", "127.0.0.1", "--port", "\(port)", "-c", "4096", "-np", "1",
                ]
            )
            // Killed and waited for on every way out: a child whose pipe was still being read when the test process
            // exited crashed libdispatch's teardown once (after every test had passed). SIGKILL, not SIGTERM:
            // llama-server's graceful stop waits for the keep-alive connections the tests' client still holds.
            func stop() async {
                kill(server.processIdentifier, SIGKILL)
                _ = try? await server.waitForExit()
            }
            do {
                try await waitForHealth(port: port)
                try await body("http://127.0.0.1:\(port)/v1")
            } catch {
                await stop()
                throw error
            }
            await stop()
        }

        /// Waits up to 60 s for llama-server to answer `/health`.
        static func waitForHealth(port: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while true {
                let health = try? await ServiceClient.transport.send(
                    HTTPTransportRequest(method: "GET", url: "http://127.0.0.1:\(port)/health", timeout: .seconds(1))
                )
                if health?.status == 200 { return }
                guard ContinuousClock.now < deadline else { throw FixtureError("llama-server did not answer /health in 60 s") }
                try await Task.sleep(for: .milliseconds(200))
            }
        }

        @Test("llama-server compiles the grammar of every shipped language, and answers in its shape")
        func grammarsCompile() async throws {
            let template = try PromptTemplate.load(name: "photo-journal", from: repositoryPromptsDirectory)
            try await Self.withModel { baseURL in
                for locale in Self.shippedLocales {
                    let body: [String: Any] = [
                        "model": "smollm2", "temperature": 0, "max_tokens": 24,
                        "messages": [["role": "user", "content": "Write questions."]],
                        "grammar": template.grammar(for: LanguageTag(locale: locale)),
                    ]
                    let reply = try await ServiceClient.transport.send(
                        HTTPTransportRequest(
                            method: "POST",
                            url: baseURL + "/chat/completions",
                            headers: [("Content-Type", "application/json")],
                            body: Array(try JSONSerialization.data(withJSONObject: body)),
                            timeout: .seconds(30)
                        )
                    )
                    #expect(reply.status == 200, "\(locale): \(String(decoding: reply.body, as: UTF8.self).prefix(300))")
                }
            }
        }

        @Test(
            "Seeded SmolLM2 through the service: no shown card fails the gate, all in time, English above the floor, other languages without a call"
        )
        func throughTheService() async throws {
            let prompts = try TemporaryPrompts()
            let settings = "photo-journal/settings.json"
            // The shipped sampling with a fixed seed: the same photo gives the same reply on the same build. (Greedy
            // decoding, temperature 0, copies the examples and repeats one question: it measures a setting no user gets.)
            try prompts.write(
                settings,
                try prompts.read(settings).replacing(#""temperature": 0.3,"#, with: #""temperature": 0.3, "seed": 20261125,"#)
            )
            let template = try PromptTemplate.load(name: "photo-journal", from: prompts.directory)
            try await Self.withModel { baseURL in
                var environment = operatorEnvironment(stub: nil, prompts: prompts)
                environment["LLM_PROVIDER"] = "openai"
                environment["LLM_BASE_URL"] = baseURL
                environment["LLM_MODEL"] = "smollm2"
                environment["LLM_LANGUAGES"] = "en"
                environment["LLM_TIMEOUT"] = "15"
                try await withService(environment) { client in
                    var modelCards = 0
                    for json in Self.englishPhotos + Self.otherPhotos {
                        let request = try PromptPreview.request(fromJSON: Data(json.utf8))
                        let started = ContinuousClock.now
                        let answer = try await client.startSession(json)
                        #expect(ContinuousClock.now - started < .seconds(16), "answered within LLM_TIMEOUT + 1 s")
                        #expect(answer.prompts.count == 3)
                        let validator = template.validator(for: LanguageTag(locale: request.locale), photo: request.photo)
                        for card in answer.prompts where card.source == .model {
                            let judged = validator.validate([card.text])
                            #expect(judged.kept.count == 1, "shown, yet the gate says \(judged.rejected.map(\.reason)): \(card.text)")
                        }
                        if LanguageTag(locale: request.locale).language == "en" {
                            modelCards += answer.prompts.count { $0.source == .model }
                        } else {
                            #expect(answer.fallbackReason == .unsupportedLanguage, "\(request.locale)")
                            #expect(answer.backend == nil, "no model call for \(request.locale)")
                        }
                    }
                    let share = Double(modelCards) / Double(3 * Self.englishPhotos.count)
                    #expect(share >= Self.englishFloor, "English cards from the model: \(share), floor \(Self.englishFloor)")
                    print("real-model check: English cards from the model \(share)")
                }
            }
        }
    }
}
