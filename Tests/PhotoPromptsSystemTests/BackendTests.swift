import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain
import PromptGeneration
import PromptStores
import PromptTemplates
import StubLLM
import Testing

/// The providers that speak HTTP, each served by stub-llm in its own API shape.
let httpProviders = ["openai", "anthropic", "ollama"]

extension SystemTests {
    @Suite("Every backend kind, every fault: one deadline, a fallback with a reason")
    struct BackendFaultTests {
        @Test("Each provider's API shape is spoken and the answer names the backend and model", arguments: httpProviders)
        func answersInEveryShape(provider: String) async throws {
            try await withStubLLM { stub in
                try await withService(chainEnvironment((stub, provider))) { client in
                    let answer = try await client.startSession()
                    #expect(answer.source == .model)
                    #expect(answer.prompts.map(\.source) == [.model, .model, .model])
                    #expect(answer.backend == BackendIdentity(provider: provider, model: "stub-\(provider)"))
                }
            }
        }

        @Test(
            "Real models' reply shapes give model prompts on the first call, through every provider's API",
            arguments: httpProviders,
            [StubBehaviour.fencedWithPreamble, .fencedWithSignOff, .boldNumbered, .italicLines, .jsonOtherKey, .jsonObjects]
        )
        func realReplyShapes(provider: String, behaviour: StubBehaviour) async throws {
            try await withStubLLM(behaviour) { stub in
                try await withService(chainEnvironment((stub, provider))) { client in
                    let answer = try await client.startSession()
                    #expect(answer.source == .model)
                    #expect(answer.prompts.count == 3)
                    #expect(await stub.calls == 1, "all six were usable, so nothing was re-asked")
                    // The other three are the session's surplus: the first refresh needs no model call.
                    let refreshed = try await client.refresh(answer.sessionID)
                    #expect(refreshed.lookup["source"].string == "model")
                    #expect(await stub.calls == 1)
                }
            }
        }

        @Test("An Anthropic base URL works with or without a trailing /v1", arguments: ["", "/v1", "/v1/", "/"])
        func anthropicBaseURL(suffix: String) async throws {
            try await withStubLLM { stub in
                var environment = chainEnvironment((stub, "anthropic"))
                environment["LLM_BASE_URL"] = stub.baseURL(for: "anthropic") + suffix
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                }
            }
        }

        @Test(
            "A fault of any kind gives the right reason before the deadline plus 0.5 s",
            arguments: httpProviders,
            [StubBehaviour.serverError, .rateLimited, .garbage, .truncated, .hang, .trickle]
        )
        func faults(provider: String, behaviour: StubBehaviour) async throws {
            try await withStubLLM(behaviour) { stub in
                try await withService(chainEnvironment((stub, provider))) { client in
                    let start = ContinuousClock.now
                    let answer = try await client.startSession()
                    let elapsed = ContinuousClock.now - start
                    let expected: FallbackReason = [.hang, .trickle].contains(behaviour) ? .timeout : .backendError
                    #expect(answer.fallbackReason == expected)
                    #expect(answer.prompts.map(\.text) == productFallbacks)
                    #expect(answer.backend == nil)
                    #expect(elapsed < .milliseconds(1500), "answered after \(elapsed)")
                }
            }
        }

        @Test("A refused connection is backend_error for every provider", arguments: httpProviders)
        func refused(provider: String) async throws {
            let closed = try await withStubLLM { $0 }
            try await withService(chainEnvironment((closed, provider))) { client in
                let answer = try await client.startSession()
                #expect(answer.fallbackReason == .backendError)
            }
        }

        @Test("A host name that does not resolve is backend_error, decided locally without DNS traffic", arguments: httpProviders)
        func dnsFailure(provider: String) async throws {
            // "a..b" has an empty label: the resolver rejects it without sending a query anywhere.
            let environment = testEnvironment(stub: nil).merging([
                "LLM_PROVIDER": provider, "LLM_BASE_URL": "http://a..b/v1", "LLM_MODEL": "m",
            ]) { $1 }
            try await withService(environment) { client in
                let answer = try await client.startSession()
                #expect(answer.fallbackReason == .backendError)
            }
        }

        @Test("The template's model parameters reach each provider in its own words", arguments: httpProviders)
        func parameters(provider: String) async throws {
            try await withStubLLM { stub in
                try await withService(chainEnvironment((stub, provider))) { client in
                    _ = try await client.startSession()
                    let body = await stub.state.lastRequestBody
                    #expect(body.contains(#""temperature":0.3"#))
                    // No max_tokens in settings.json: sized from 8 questions of at most 15 English words.
                    let limit = 8 * (15 * 2 + 4)
                    #expect(body.contains(provider == "ollama" ? #""num_predict":\#(limit)"# : #""max_tokens":\#(limit)"#))
                    #expect(body.contains(#""model":"stub-\#(provider)""#))
                }
            }
        }
    }
}

extension SystemTests {
    @Suite("A chain of backends within one deadline")
    struct BackendChainTests {
        @Test("Primary hangs, secondary answers: the answer comes before the deadline and names the secondary", .tags(.slow))
        func failover() async throws {
            try await withStubLLM(.hang) { primary in
                try await withStubLLM { secondary in
                    var environment = chainEnvironment((primary, "openai"), (secondary, "ollama"))
                    // 3 s, not the suite's usual 1 s: the primary may use 2 s, and the margin must survive a loaded CI machine.
                    environment["LLM_TIMEOUT"] = "3"
                    try await withService(environment) { client in
                        let start = ContinuousClock.now
                        let answer = try await client.startSession()
                        let elapsed = ContinuousClock.now - start
                        #expect(answer.source == .model)
                        #expect(answer.backend?.provider == "ollama")
                        #expect(elapsed < .seconds(3), "answered after \(elapsed), past the deadline")
                        #expect(elapsed >= .milliseconds(1900), "the primary should have had two thirds of the deadline")
                        #expect(await primary.calls == 1)
                        #expect(await secondary.calls == 1)
                    }
                }
            }
        }

        @Test("An answer with no valid prompt hands over to the next backend; when none writes one, the last is re-asked")
        func unusableAnswerHandsOver() async throws {
            try await withStubLLM(.short) { primary in
                try await withStubLLM { secondary in
                    let environment = chainEnvironment((primary, "anthropic"), (secondary, "ollama"))
                    try await withService(environment) { client in
                        let answer = try await client.startSession()
                        #expect(answer.source == .model)
                        #expect(answer.backend == BackendIdentity(provider: "ollama", model: "stub-ollama"))
                        #expect(await primary.calls == 1)
                        #expect(await secondary.calls == 1)

                        await secondary.set(.long)
                        let unusable = try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#)
                        #expect(unusable.fallbackReason == .invalidOutput)
                        #expect(await primary.calls == 2, "the primary is not asked again")
                        #expect(await secondary.calls == 3, "the secondary wrote the last reply, so it is the one re-asked")
                        #expect(await secondary.state.lastRequestBody.contains("too long at"))
                    }
                }
            }
        }

        @Test("A 429's Retry-After keeps later requests away from that backend")
        func retryAfter() async throws {
            try await withStubLLM(.rateLimited) { primary in
                try await withStubLLM { secondary in
                    let environment = chainEnvironment((primary, "anthropic"), (secondary, "openai"))
                    try await withService(environment) { client in
                        let first = try await client.startSession()
                        #expect(first.backend?.provider == "openai")
                        let second = try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#)
                        #expect(second.backend?.provider == "openai")
                        #expect(await primary.calls == 1, "skipped while Retry-After runs")
                        #expect(await secondary.calls == 2)
                    }
                }
            }
        }

        @Test(
            "A Retry-After is honoured up to BACKEND_RETRY_AFTER_MAX, in seconds or as an HTTP date, so one odd header cannot shut a backend out",
            arguments: [
                (header: "86400000", maximum: nil as String?, honoured: 120.0),
                (header: "Fri, 31 Dec 2099 23:59:59 GMT", maximum: nil, honoured: 120),
                (header: "86400000", maximum: "10", honoured: 10),
                (header: "30", maximum: nil, honoured: 30),
            ]
        )
        func retryAfterIsCapped(header: String, maximum: String?, honoured: Double) async throws {
            let clock = ManualWallClock()
            try await withStubLLM(.rateLimited) { stub in
                await stub.set(.rateLimited, retryAfter: header)
                var environment = testEnvironment(stub: stub)
                environment["BACKEND_RETRY_AFTER_MAX"] = maximum
                try await withService(environment, clock: clock) { (client: ServiceClient) async throws in
                    let noCache = [(name: "Cache-Control", value: "no-cache")]
                    #expect(try await client.startSession(headers: noCache).source == .fallback)
                    await stub.set(.normal)
                    clock.advance(by: honoured - 1)
                    #expect(try await client.startSession(headers: noCache).fallbackReason == .unavailable, "still waiting")
                    #expect(await stub.calls == 1)
                    clock.advance(by: 2)
                    #expect(try await client.startSession(headers: noCache).source == .model, "the wait is over")
                    #expect(await stub.calls == 2)
                    #expect(try await client.send("GET", "/readyz").status == 200)
                }
            }
        }

        @Test("Breaker: N failures open it, requests fall back as unavailable at once, a probe after the cool-down closes it")
        func circuitBreaker() async throws {
            let clock = ManualWallClock()
            try await withStubLLM(.serverError) { stub in
                var environment = testEnvironment(stub: stub)
                environment["BREAKER_FAILURES"] = "2"
                environment["BREAKER_COOLDOWN"] = "30"
                try await withService(environment, clock: clock) { client in
                    let noCache = [(name: "Cache-Control", value: "no-cache")]
                    #expect(try await client.startSession(headers: noCache).fallbackReason == .backendError)
                    #expect(try await client.startSession(headers: noCache).fallbackReason == .backendError)
                    await stub.set(.normal)
                    let start = ContinuousClock.now
                    let open = try await client.startSession(headers: noCache)
                    #expect(open.fallbackReason == .unavailable)
                    #expect(open.message == "AI couldn't generate prompts. Write your own entry.")
                    #expect(ContinuousClock.now - start < .milliseconds(250))
                    #expect(await stub.calls == 2, "no call while open")
                    clock.advance(by: 31)
                    let probe = try await client.startSession(headers: noCache)
                    #expect(probe.source == .model)
                    #expect(await stub.calls == 3)
                    #expect(try await client.startSession(headers: noCache).source == .model)
                    #expect(await stub.calls == 4, "closed again")
                }
            }
        }

        @Test("stub-llm can fail only its first N calls")
        func failFirst() async throws {
            try await withStubLLM { stub in
                await stub.set(.normal, failFirst: 2)
                try await withService(testEnvironment(stub: stub)) { client in
                    let answers = [try await client.startSession(), try await client.startSession(), try await client.startSession()]
                    #expect(answers.map(\.fallbackReason) == [.backendError, .backendError, nil])
                    #expect(answers[2].source == .model)
                }
            }
        }
    }
}

extension SystemTests {
    @Suite("Getting three good prompts at one backend call's cost")
    struct GenerationStrategyTests {
        @Test("20 identical requests at once make one backend call and still get their own sessions")
        func singleFlight() async throws {
            try await withStubLLM(latencyMilliseconds: 300) { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let answers = try await withThrowingTaskGroup(of: PromptsResponse.self) { group in
                        for _ in 0..<20 { group.addTask { try await client.startSession() } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(await stub.calls == 1)
                    #expect(Set(answers.map(\.sessionID)).count == 20)
                    #expect(answers.allSatisfy { $0.source == .model && $0.prompts.count == 3 })
                    #expect(Set(answers.map { $0.prompts.map(\.text) }).count == 1)
                }
            }
        }

        @Test("A caller that goes away does not fail the identical request that joined its backend call")
        func singleFlightOutlivesItsFirstCaller() async throws {
            let backend = SlowBackend()
            let generator = PromptGenerator(
                chain: BackendChain(backends: [backend], failureThreshold: 5, coolDown: 30, clock: SystemWallClock()),
                cache: try SQLitePromptStore.inMemory(),
                clock: SystemWallClock(),
                timeout: .seconds(10),
                cacheTTL: 3600
            )
            let template = try PromptTemplate(name: "t", systemText: "Write {{candidate_count}}.", userText: "{{photo.caption}}")
            let input = PromptGenerator.Input(
                template: template,
                photo: PhotoMetadata(caption: "a dog on the beach"),
                locale: "en-US",
                round: 0,
                alreadyShown: [],
                readsCache: false
            )
            let logger = Logger(label: "test")
            let first = Task { await generator.generate(input, logger: logger) }
            try await Task.sleep(for: .milliseconds(100))
            let second = Task { await generator.generate(input, logger: logger) }
            try await Task.sleep(for: .milliseconds(100))
            // Like a client hanging up mid-request: the backend's sleep would throw if the cancellation reached it.
            first.cancel()
            let joined = await second.value
            #expect(joined.source == .model)
            #expect(joined.candidates.count == 6)
            #expect(await backend.calls.count == 1)
        }

        @Test("Too few valid candidates: the model is asked once more and told exactly what was rejected")
        func reask() async throws {
            try await withStubLLM(.mixed) { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let answer = try await client.startSession()
                    #expect(await stub.calls == 2)
                    #expect(answer.prompts.map(\.source) == [.model, .model, .model])
                    let feedback = await stub.state.lastRequestBody
                    #expect(feedback.contains("too short at 2 words"))
                    #expect(feedback.contains("too long at"))
                    #expect(feedback.contains(#""role":"assistant""#), "the rejected reply is part of the conversation")
                }
            }
        }

        @Test("A reply with no usable candidate is still judged: the model is re-asked with every rejection, and they are counted")
        func reaskAfterUnusableReply() async throws {
            try await withStubLLM(.short) { stub in
                let prompts = try TemporaryPrompts()
                try await withService(operatorEnvironment(stub: stub, prompts: prompts)) { client in
                    let answer = try await client.startSession()
                    #expect(answer.fallbackReason == .invalidOutput)
                    #expect(answer.prompts.map(\.text) == productFallbacks)
                    #expect(await stub.calls == 2, "six questions of 2–4 words: the model is asked once more")
                    let feedback = await stub.state.lastRequestBody
                    #expect(feedback.contains("None of those questions could be used"))
                    #expect(feedback.contains(#"\"Why here?\": too short at 2 words"#))
                    #expect(feedback.contains(#"\"How did it feel?\": too short at 4 words"#))

                    // Both replies' six rejections reach the operators' counts.
                    #expect(try await client.metricsText().contains(#"photoprompts_rejections_total{reason="too_short"} 12"#))
                    let version = try await client.versionStats()
                    #expect(version["rejections", "too_short"].int == 12)
                    #expect(version["reask_rate"].double == 1)
                }
            }
        }

        @Test("20 identical requests sharing one answer count its candidates once, for the request that asked for it")
        func singleFlightCountsOnce() async throws {
            try await withStubLLM(.short, latencyMilliseconds: 300) { stub in
                let prompts = try TemporaryPrompts()
                try await withService(operatorEnvironment(stub: stub, prompts: prompts)) { client in
                    let answers = try await withThrowingTaskGroup(of: PromptsResponse.self) { group in
                        for _ in 0..<20 { group.addTask { try await client.startSession() } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(await stub.calls == 2, "one answer and its re-ask, shared by all 20")
                    #expect(answers.allSatisfy { $0.fallbackReason == .invalidOutput })

                    // The model wrote twelve 2–4-word questions in all; 20 requests showing the result do not make it 240.
                    #expect(try await client.metricsText().contains(#"photoprompts_rejections_total{reason="too_short"} 12"#))
                    let version = try await client.versionStats()
                    #expect(version["requests"].int == 20)
                    #expect(version["sessions"].int == 20)
                    #expect(version["rejections", "too_short"].int == 12)
                    #expect(version["reask_rate"].double == 1)
                }
            }
        }

        @Test("A refresh served from the surplus judges nothing: the pass rate stays what the model's answer made it")
        func surplusIsNotJudgedAgain() async throws {
            try await withStubLLM { stub in
                let prompts = try TemporaryPrompts()
                // Ten candidates, some naming the photo's dog: a few rejections, and enough kept for a surplus round.
                try prompts.write(
                    "photo-journal/settings.json",
                    #"{"candidate_count": 10, "checks": {"must_end_with_question_mark": true, "blocked_words": ["dog"]}}"#
                )
                try await withService(operatorEnvironment(stub: stub, prompts: prompts)) { client in
                    let first = try await client.startSession()
                    let answered = try await client.versionStats()
                    let passRate = try #require(answered["pass_rate"].double)
                    #expect(passRate < 1, "the blocked word rejects some of the ten")

                    let refreshed = try await client.refresh(first.sessionID).decode(PromptsResponse.self)
                    #expect(refreshed.source == .model)
                    #expect(await stub.calls == 1, "served from the surplus")
                    let version = try await client.versionStats()
                    #expect(version["refreshes"].int == 1)
                    #expect(version["pass_rate"].double == passRate)
                    #expect(version["reask_rate"].double == answered["reask_rate"].double)
                }
            }
        }

        @Test("The surplus of one answer serves the next refresh: no backend call, and it counts")
        func surplus() async throws {
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let first = try await client.startSession()
                    let refreshed = try await client.refresh(first.sessionID).decode(PromptsResponse.self)
                    #expect(await stub.calls == 1)
                    #expect(refreshed.source == .model)
                    #expect(refreshed.refreshesUsed == 1)
                    #expect(Set(refreshed.prompts.map(\.text)).isDisjoint(with: first.prompts.map(\.text)))
                    _ = try await client.refresh(first.sessionID)
                    #expect(await stub.calls == 2, "the surplus is spent, so the model is asked")
                }
            }
        }

        @Test("Server-Timing names render, cache, each backend attempt and validation")
        func serverTiming() async throws {
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let reply = try await client.post("/v1/prompts", json: samplePhotoRequest)
                    let header = try #require(reply.headers["server-timing"])
                    for part in ["cache;dur=", "render;dur=", "backend-1;dur=", "validate;dur=", "store;dur="] {
                        #expect(header.contains(part), "\(part) missing from \(header)")
                    }
                    #expect(header.contains(#"desc="openai/stub-model ok""#))
                    let cached = try await client.post("/v1/prompts", json: samplePhotoRequest)
                    #expect(cached.headers["server-timing"]?.contains(#"cache;dur="#) == true)
                    #expect(cached.headers["server-timing"]?.contains("backend") == false)
                }
            }
        }
    }
}

/// A backend that takes 400 ms, honours cancellation, and counts its calls.
private struct SlowBackend: LLMBackend {
    actor Calls {
        var count = 0
        func add() { count += 1 }
    }

    let identity = BackendIdentity(provider: "slow", model: "test")
    let calls = Calls()

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        await calls.add()
        try await Task.sleep(for: .milliseconds(400))
        return LLMReply(text: Self.questions.joined(separator: "\n"))
    }

    /// Six different questions: ones that differ only in a number would be near-duplicates, and one would be kept.
    static let questions = [
        "What did the dog on the beach chase first that morning?",
        "Who threw the ball for the dog on the beach today?",
        "How did the sand feel under your feet during the walk?",
        "Which sound from the waves do you want to remember longest?",
        "What were you talking about while the dog ran ahead?",
        "Why did you choose this beach for a walk with your dog?",
    ]

}

extension SystemTests {
    @Suite("How a reply ended, why a backend failed, and what each call cost")
    struct BackendReplyDetailTests {
        @Test(
            "No text at the token limit (a reasoning model's spent budget) is judged unusable and re-asked, not a transport error",
            arguments: httpProviders
        )
        func emptyReplyIsReasked(provider: String) async throws {
            try await withStubLLM(.reasoningEmpty) { stub in
                var environment = chainEnvironment((stub, provider))
                environment["LLM_TIMEOUT"] = "2"
                try await withService(environment) { client in
                    let answer = try await client.startSession()
                    #expect(answer.fallbackReason == .invalidOutput)
                    #expect(await stub.calls == 2, "asked again with time left")
                }
            }
        }

        @Test("A reply cut at the token limit keeps its complete questions, and its cut last line is not judged", arguments: httpProviders)
        func cutReplyDropsItsLastLine(provider: String) async throws {
            try await withStubLLM(.cutAtLength) { stub in
                let prompts = try TemporaryPrompts()
                let environment = operatorEnvironment(stub: nil, prompts: prompts).merging(stub.backendEnvironment(provider: provider)) { $1 }
                try await withService(environment) { client in
                    let answer = try await client.startSession()
                    #expect(answer.source == .model)
                    #expect(await stub.calls == 1)
                    #expect(!answer.prompts.contains { $0.text.hasPrefix("What made you") })
                    let metrics = try await client.metricsText()
                    #expect(!metrics.contains("photoprompts_rejections_total"), "nothing was rejected: \(metrics)")
                }
            }
        }

        @Test(
            "Backend outcomes in /metrics tell rate limits, auth, bad requests, server errors, timeouts and connections apart",
            arguments: [
                (StubBehaviour.rateLimited, "rate_limited"), (.unauthorized, "auth"), (.badRequest, "bad_request"), (.serverError, "server_error"),
                (.hang, "timeout"),
            ]
        )
        func outcomes(behaviour: StubBehaviour, outcome: String) async throws {
            try await withStubLLM(behaviour) { stub in
                let prompts = try TemporaryPrompts()
                try await withService(operatorEnvironment(stub: stub, prompts: prompts)) { client in
                    #expect(try await client.startSession().source == .fallback)
                    let metrics = try await client.metricsText()
                    #expect(metrics.contains(#"photoprompts_backend_calls_total{backend="openai/stub-model",outcome="\#(outcome)"} 1"#), "\(metrics)")
                }
            }
        }

        @Test("A refused connection is counted as connection")
        func connectionOutcome() async throws {
            let closed = try await withStubLLM { $0 }
            let prompts = try TemporaryPrompts()
            try await withService(operatorEnvironment(stub: closed, prompts: prompts)) { client in
                _ = try await client.startSession()
                #expect(try await client.metricsText().contains(#"outcome="connection"} 1"#))
            }
        }

        @Test(
            "generate prints the provider's error message, shortened and with the key masked",
            arguments: [StubBehaviour.badRequest, .unauthorized]
        )
        func providerMessageIsShown(behaviour: StubBehaviour) async throws {
            try await withStubLLM(behaviour) { stub in
                let (status, output) = try await runGenerate(against: stub)
                #expect(status == 0)
                if behaviour == .badRequest {
                    #expect(output.contains("HTTP 400") && output.contains("Use 'max_completion_tokens' instead"), "\(output)")
                } else {
                    #expect(output.contains("HTTP 401") && output.contains("Incorrect API key provided"), "\(output)")
                    #expect(!output.contains("1234567890abcdef"), "the key is masked: \(output)")
                }
            }
        }

        @Test("Token usage the provider reports shows in /metrics by backend and in /admin/stats per template version", arguments: httpProviders)
        func tokens(provider: String) async throws {
            try await withStubLLM { stub in
                let prompts = try TemporaryPrompts()
                let environment = operatorEnvironment(stub: nil, prompts: prompts).merging(stub.backendEnvironment(provider: provider)) { $1 }
                try await withService(environment) { client in
                    _ = try await client.startSession()
                    _ = try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#)
                    let metrics = try await client.metricsText()
                    let backend = "\(provider)/stub-\(provider)"
                    let prompt = try #require(Self.value(in: metrics, #"photoprompts_backend_tokens_total{backend="\#(backend)",kind="prompt"}"#))
                    let completion = try #require(
                        Self.value(in: metrics, #"photoprompts_backend_tokens_total{backend="\#(backend)",kind="completion"}"#)
                    )
                    #expect(prompt > 100 && completion > 20)
                    let stats = try await client.versionStats()
                    #expect(stats["tokens", "prompt"].int == prompt)
                    #expect(stats["tokens", "completion"].int == completion)
                    #expect(stats["tokens_per_session"].double == Double(prompt + completion) / 2)
                }
            }
        }

        static func value(in metrics: String, _ series: String) -> Int? {
            metrics.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
        }
    }
}

extension SystemTests {
    @Suite("Structured output where the provider has it, and models that refuse parameters")
    struct RequestShapeTests {
        @Test(
            "llama.cpp's server is asked for a grammar of what the gate accepts, Ollama for a JSON schema with the count, Anthropic for plain text",
            arguments: httpProviders
        )
        func structuredOutputIsRequested(provider: String) async throws {
            try await withStubLLM { stub in
                try await withService(chainEnvironment((stub, provider))) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    let body = await stub.state.lastRequestBody
                    switch provider {
                    case "openai":
                        #expect(body.contains(#""grammar":"root ::= item item item item item item item item"#), "\(body)")
                        #expect(!body.contains("response_format"))
                    case "ollama":
                        #expect(body.contains(#""format":{"#), "\(body)")
                        #expect(body.contains(#""maxItems":8"#) && body.contains(#""minItems":8"#) && !body.contains("pattern"), "\(body)")
                    default:
                        #expect(!body.contains("response_format") && !body.contains(#""format""#), "\(body)")
                    }
                }
            }
        }

        @Test(
            "A server that refuses structured output is asked again in plain text within the same request, and remembered",
            arguments: ["openai", "ollama"]
        )
        func refusedStructuredOutput(provider: String) async throws {
            try await withStubLLM(.noStructuredOutput) { stub in
                try await withService(chainEnvironment((stub, provider))) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    // A generic OpenAI-compatible server (its model list says so) and Ollama: the JSON schema refused, then
                    // plain text.
                    #expect(await stub.calls == 2)
                    #expect(try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#).source == .model)
                    #expect(await stub.calls == 3, "no second refusal")
                }
            }
        }

        @Test("An OpenAI-compatible server that is not llama.cpp's is asked for the JSON schema from its first call, and asked what it is once")
        func genericServerGetsTheSchema() async throws {
            // `.noGrammar` answers a grammar with a 400, as OpenAI does: one refusal would show as a second call.
            try await withStubLLM(.noGrammar) { stub in
                try await withService(chainEnvironment((stub, "openai"))) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    #expect(await stub.calls == 1, "no call wasted on a grammar")
                    let body = await stub.state.lastRequestBody
                    #expect(
                        body.contains(#""response_format":{"#) && body.contains(#""type":"json_schema""#) && body.contains(#""strict":true"#),
                        "\(body)"
                    )
                    #expect(body.contains(#""minItems":8"#) && body.contains(#""minLength":24"#) && body.contains(#""maxLength":120"#), "\(body)")
                    #expect(!body.contains("grammar") && !body.contains("pattern") && !body.contains("dry_multiplier"))
                    #expect(try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#).source == .model)
                    #expect(await stub.calls == 2)
                    #expect(await stub.state.modelListRequests == 1, "what the server is, read once")
                }
            }
        }

        @Test("A server that ignores unknown fields and is not llama.cpp's still gets the JSON schema it honours, not a grammar")
        func ignoringServerGetsTheSchema() async throws {
            // vLLM and LM Studio answer 200 to a `grammar` they do not know: no refusal would ever step down.
            try await withStubLLM { stub in
                await stub.state.set(serverOwner: "vllm")
                try await withService(chainEnvironment((stub, "openai"))) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    let body = await stub.state.lastRequestBody
                    #expect(body.contains(#""response_format":{"#), "\(body)")
                    #expect(!body.contains("grammar"), "\(body)")
                }
            }
        }

        @Test("An explicit grammar or JSON schema is sent as set, whatever the server says it is", arguments: ["grammar", "json_schema"])
        func explicitStructuredOutput(setting: String) async throws {
            try await withStubLLM { stub in
                await stub.state.set(serverOwner: setting == "grammar" ? "vllm" : "llamacpp")
                var environment = chainEnvironment((stub, "openai"))
                environment["LLM_STRUCTURED_OUTPUT"] = setting
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    let body = await stub.state.lastRequestBody
                    #expect(body.contains(#""grammar":"#) == (setting == "grammar"), "\(body)")
                    #expect(body.contains(#""response_format":"#) == (setting == "json_schema"), "\(body)")
                    #expect(await stub.state.modelListRequests == 0, "an explicit choice asks nothing")
                }
            }
        }

        @Test("A reasoning model that refuses max_tokens and temperature gets model prompts on its first request, then one call each")
        func reasoningModel() async throws {
            try await withStubLLM(.reasoningModel) { stub in
                var environment = chainEnvironment((stub, "openai"))
                environment["LLM_TIMEOUT"] = "2"
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    #expect(await stub.calls == 3, "refused max_tokens, then temperature, then answered")
                    #expect(try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#).source == .model)
                    #expect(await stub.calls == 4)
                    let body = await stub.state.lastRequestBody
                    #expect(
                        body.contains(#""max_completion_tokens":\#(8 * (15 * 2 + 4))"#) && !body.contains("temperature")
                            && !body.contains(#""max_tokens""#)
                    )
                }
            }
        }

        @Test("Explicit settings spare a known reasoning model the first refusals")
        func explicitSettings() async throws {
            try await withStubLLM(.reasoningModel) { stub in
                var environment = chainEnvironment((stub, "openai"))
                environment["LLM_MAX_TOKENS_PARAMETER"] = "max_completion_tokens"
                environment["LLM_SEND_TEMPERATURE"] = "off"
                environment["LLM_STRUCTURED_OUTPUT"] = "off"
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    #expect(await stub.calls == 1)
                    #expect(!(await stub.state.lastRequestBody).contains("response_format"))
                }
            }
        }

        @Test("A template that sets no temperature sends none", arguments: httpProviders)
        func noTemperature(provider: String) async throws {
            try await withStubLLM { stub in
                let prompts = try TemporaryPrompts()
                let path = "photo-journal/settings.json"
                try prompts.write(path, try prompts.read(path).replacing(#""temperature": 0.3,"#, with: ""))
                let environment = operatorEnvironment(stub: nil, prompts: prompts).merging(stub.backendEnvironment(provider: provider)) { $1 }
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    #expect(!(await stub.state.lastRequestBody).contains("temperature"))
                }
            }
        }
    }
}
