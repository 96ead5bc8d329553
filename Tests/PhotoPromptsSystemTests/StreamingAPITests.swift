import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import Testing

extension SystemTests {
    @Suite("Prompts stream as Server-Sent Events while the model writes, through real libcurl from stub-llm")
    struct StreamingAPITests {
        /// The events' prompts, decoded, in the order they came.
        static func streamedPrompts(_ stream: ServiceClient.EventStream) throws -> [(position: Int, prompt: Prompt)] {
            try stream.prompts.map { event in
                let object = try event.json
                let prompt = try SnakeCaseJSON.decoder.decode(Prompt.self, from: JSONSerialization.data(withJSONObject: object["prompt"] ?? [:]))
                return (try #require(object["position"] as? Int), prompt)
            }
        }

        static func answer(_ stream: ServiceClient.EventStream) throws -> PromptsResponse {
            try SnakeCaseJSON.decoder.decode(PromptsResponse.self, from: Data(try #require(stream.done).data.utf8))
        }

        @Test(
            "Each provider's stream: three prompt events before done, each as done shows it, the first long before done",
            arguments: ["openai", "anthropic", "ollama"]
        )
        func streamsInEveryShape(provider: String) async throws {
            try await withStubLLM(latencyMilliseconds: 150) { stub in
                await stub.state.setStreaming(tokenDelayMilliseconds: 10, stallAfterTokens: nil)
                let environment = testEnvironment(stub: nil).merging(stub.backendEnvironment(provider: provider)) { $1 }
                try await withService(environment) { client in
                    let stream = try await client.stream("/v1/prompts", json: samplePhotoRequest)
                    #expect(stream.status == 200)
                    #expect(stream.headers["content-type"]?.hasPrefix("text/event-stream") == true)
                    #expect(await stub.state.lastRequestBody.contains(#""stream":true"#))
                    let prompts = try Self.streamedPrompts(stream)
                    let answer = try Self.answer(stream)
                    #expect(prompts.map(\.position) == [0, 1, 2])
                    #expect(prompts.map(\.prompt) == answer.prompts, "each event is the prompt done shows at its place")
                    #expect(answer.source == .model)
                    #expect(answer.prompts.allSatisfy { $0.source == .model && (8...15).contains($0.wordCount) })
                    #expect(stream.events.last?.name == "done")
                    let first = try #require(stream.prompts.first).at
                    let done = try #require(stream.done).at
                    #expect(first < done * 0.6, "the first prompt at \(first), done at \(done)")
                    // The session holds what was streamed.
                    let stored = try await client.session(answer.sessionID).json
                    let rounds = try #require(stored["rounds"] as? [[String: Any]])
                    let ids = (rounds.first?["prompts"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
                    #expect(ids == answer.prompts.map(\.id))
                }
            }
        }

        @Test("Without Accept: text/event-stream nothing changes: JSON, and the model is asked for a whole reply")
        func jsonWithoutTheHeader() async throws {
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let reply = try await client.post("/v1/prompts", json: samplePhotoRequest)
                    #expect(reply.status == 200)
                    #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true)
                    #expect(await stub.state.lastRequestBody.contains(#""stream":false"#))
                    #expect(try reply.decode(PromptsResponse.self).prompts.count == 3)
                }
            }
        }

        @Test("Errors known before the first event are ordinary JSON answers with their status")
        func errorsBeforeTheStream() async throws {
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let unknown = try await client.stream("/v1/sessions/s_unknown/refresh")
                    #expect(unknown.status == 404)
                    #expect(unknown.headers["content-type"]?.hasPrefix("application/json") == true)
                    #expect(unknown.events.isEmpty)

                    let invalid = try await client.stream("/v1/prompts", json: #"{"photo": {"labels": "beach"}}"#)
                    #expect(invalid.status == 400)
                    #expect(invalid.events.isEmpty)

                    let session = try await client.startSession()
                    for _ in 0..<5 { _ = try await client.refresh(session.sessionID) }
                    let spent = try await client.stream("/v1/sessions/\(session.sessionID)/refresh")
                    #expect(spent.status == 429)
                    #expect(spent.events.isEmpty)
                    #expect(String(decoding: spent.body, as: UTF8.self).contains("refresh_limit_reached"))
                }
            }
        }

        @Test("A model that stalls after one question: the other cards are fallbacks in done by LLM_TIMEOUT + 0.5 s, reason timeout")
        func stallPastTheDeadline() async throws {
            try await withStubLLM { stub in
                // The first question is about 60 characters, 15 tokens: it arrives whole, then nothing more.
                await stub.state.setStreaming(tokenDelayMilliseconds: 5, stallAfterTokens: 22)
                try await withService(testEnvironment(stub: stub)) { client in
                    let start = ContinuousClock.now
                    let stream = try await client.stream("/v1/prompts", json: samplePhotoRequest)
                    let elapsed = ContinuousClock.now - start
                    #expect(elapsed < .milliseconds(1500), "answered after \(elapsed)")
                    let prompts = try Self.streamedPrompts(stream)
                    let answer = try Self.answer(stream)
                    #expect(answer.fallbackReason == .timeout)
                    #expect(prompts.map(\.prompt) == answer.prompts)
                    #expect(answer.prompts.map(\.source) == [.model, .fallback, .fallback])
                    #expect(try #require(stream.prompts.first).at < .milliseconds(900), "the model's prompt was sent before the deadline")
                    #expect(answer.message != nil, "the app has a message to show")
                }
                await stub.state.releaseAll()
            }
        }

        @Test("A stream cut mid-way keeps what was sent; the answer is complete and shows no prompt twice")
        func cutMidway() async throws {
            try await withStubLLM { stub in
                await stub.state.setStreaming(tokenDelayMilliseconds: 2, stallAfterTokens: 40)
                try await withService(testEnvironment(stub: stub)) { client in
                    async let cutting: Void = {
                        try? await Task.sleep(for: .milliseconds(300))
                        await stub.state.releaseAll()
                    }()
                    let stream = try await client.stream("/v1/prompts", json: samplePhotoRequest)
                    await cutting
                    let prompts = try Self.streamedPrompts(stream)
                    let answer = try Self.answer(stream)
                    #expect(stream.status == 200)
                    #expect(prompts.map(\.prompt) == answer.prompts)
                    #expect(answer.prompts.count == 3)
                    #expect(Set(answer.prompts.map { PromptNormalizer.repeatKey($0.text) }).count == 3)
                    #expect(answer.prompts.first?.source == .model)
                }
            }
        }

        @Test("A cache hit, an idempotent replay and the surplus stream all three prompts at once, then done")
        func answersWithoutTheModel() async throws {
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let first = try await client.stream("/v1/prompts", json: samplePhotoRequest, headers: [("Idempotency-Key", "k-1")])
                    let replay = try await client.stream("/v1/prompts", json: samplePhotoRequest, headers: [("Idempotency-Key", "k-1")])
                    #expect(try Self.answer(replay).sessionID == Self.answer(first).sessionID)
                    #expect(try Self.streamedPrompts(replay).map(\.prompt) == Self.answer(first).prompts)

                    // Another user: the first has met these prompts, and their history keeps them from meeting them again.
                    let cached = try await client.stream("/v1/prompts", json: samplePhotoRequest(userID: "u_other"))
                    #expect(try Self.answer(cached).source == .cache)
                    #expect(try Self.streamedPrompts(cached).map(\.position) == [0, 1, 2])
                    #expect(await stub.calls == 1)

                    // The first answer's model wrote six: the refresh is the other three, with no model call.
                    let surplus = try await client.stream("/v1/sessions/\(Self.answer(first).sessionID)/refresh")
                    let refreshed = try Self.answer(surplus)
                    #expect(refreshed.refreshesUsed == 1)
                    #expect(try Self.streamedPrompts(surplus).map(\.prompt) == refreshed.prompts)
                    #expect(Set(refreshed.prompts.map(\.text)).isDisjoint(with: try Self.answer(first).prompts.map(\.text)))
                    #expect(await stub.calls == 1)
                }
            }
        }

        @Test("A streamed refresh counts once, when done says so")
        func refreshCountsOnce() async throws {
            try await withStubLLM { stub in
                try await withService(testEnvironment(stub: stub).merging(["CACHE_TTL": "0.001"]) { $1 }) { client in
                    let session = try await client.startSession()
                    _ = try await client.refresh(session.sessionID)
                    await stub.state.setStreaming(tokenDelayMilliseconds: 1, stallAfterTokens: nil)
                    let stream = try await client.stream("/v1/sessions/\(session.sessionID)/refresh")
                    let answer = try Self.answer(stream)
                    #expect(answer.refreshesUsed == 2)
                    let stored = try await client.session(session.sessionID).json
                    #expect(stored["refreshes_used"] as? Int == 2)
                    #expect(try Self.streamedPrompts(stream).map(\.prompt) == answer.prompts)
                }
            }
        }

        @Test("A re-ask streams too: two good prompts from the first reply, the third from the second, in one stream")
        func reaskStreams() async throws {
            try await withStubLLM(.mixed) { stub in
                await stub.state.setStreaming(tokenDelayMilliseconds: 1, stallAfterTokens: nil)
                // The re-ask is made only while time is left, so this test is not about the deadline: the tests' 1 s
                // left none on a machine reading its files from a cold disk, and the third prompt was a fallback.
                try await withService(testEnvironment(stub: stub).merging(["LLM_TIMEOUT": "10"]) { $1 }) { client in
                    let stream = try await client.stream("/v1/prompts", json: samplePhotoRequest)
                    let answer = try Self.answer(stream)
                    #expect(await stub.calls == 2)
                    #expect(answer.prompts.map(\.source) == [.model, .model, .model])
                    #expect(try Self.streamedPrompts(stream).map(\.prompt) == answer.prompts)
                    // The first two were sent while the first reply was still being written, before the re-ask.
                    let events = stream.prompts.map(\.at)
                    #expect(events[1] < events[2])
                }
            }
        }

        @Test("Failover streams: a primary that hangs hands over, and the secondary's prompts stream, named in done")
        func failoverStreams() async throws {
            try await withStubLLM(.hang) { primary in
                try await withStubLLM { secondary in
                    await secondary.state.setStreaming(tokenDelayMilliseconds: 1, stallAfterTokens: nil)
                    try await withService(chainEnvironment((primary, "openai"), (secondary, "anthropic"))) { client in
                        let start = ContinuousClock.now
                        let stream = try await client.stream("/v1/prompts", json: samplePhotoRequest)
                        #expect(ContinuousClock.now - start < .milliseconds(1500))
                        let answer = try Self.answer(stream)
                        #expect(answer.backend?.provider == "anthropic")
                        #expect(answer.source == .model)
                        #expect(try Self.streamedPrompts(stream).map(\.prompt) == answer.prompts)
                        #expect(await secondary.state.lastRequestBody.contains(#""stream":true"#))
                    }
                    await primary.state.releaseAll()
                }
            }
        }

        @Test("Identical streamed requests at once share one model call; the ones that joined get the shared answer's events")
        func singleFlight() async throws {
            try await withStubLLM(latencyMilliseconds: 300) { stub in
                try await withService(testEnvironment(stub: stub)) { client in
                    let streams = try await withThrowingTaskGroup(of: ServiceClient.EventStream.self) { group in
                        for _ in 0..<8 { group.addTask { try await client.stream("/v1/prompts", json: samplePhotoRequest) } }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(await stub.calls == 1)
                    for stream in streams {
                        let answer = try Self.answer(stream)
                        #expect(try Self.streamedPrompts(stream).map(\.prompt) == answer.prompts)
                    }
                    #expect(Set(try streams.map { try Self.answer($0).sessionID }).count == 8)
                }
            }
        }

        @Test("Comment lines keep the connection alive while the model thinks")
        func keepAlive() async throws {
            try await withStubLLM(latencyMilliseconds: 700) { stub in
                try await withService(testEnvironment(stub: stub).merging(["STREAM_KEEPALIVE": "0.2"]) { $1 }) { client in
                    let stream = try await client.stream("/v1/prompts", json: samplePhotoRequest)
                    #expect(stream.comments.filter { $0 == "keep-alive" }.count >= 2, "\(stream.comments)")
                    #expect(try Self.answer(stream).source == .model)
                }
            }
        }
    }
}
