import GRDB
import PhotoPromptsTestSupport
import PromptStores
import Testing

/// A streamed answer keeps its connection alive while the model writes; a streamed replay sends the kept answer's
/// cards, then `done`, and a kept answer that does not read back ends the stream with `error`, never with `done`
/// after no cards.
@Suite("Streams through the router: keep-alive comments and replays")
struct StreamedReplayRouteTests {
    static let key = (name: "Idempotency-Key", value: "replay-as-stream")
    static let stream = (name: "Accept", value: "text/event-stream")

    @Test("A model that takes 400 ms, with STREAM_KEEPALIVE 0.05 s: keep-alive comments while it writes, then its cards")
    func keepAliveWhileTheModelWrites() async throws {
        let backend = ScriptedBackend(name: "m", replies: [FreshPromptsRouteTests.twelve], latency: .milliseconds(400))
        let environment = baseEnvironment().merging(["STREAM_KEEPALIVE": "0.05"]) { $1 }
        try await withRouterService(environment, backends: [backend]) { client in
            let reply = try await client.post("/v1/prompts", json: FreshPromptsRouteTests.beach, headers: [Self.stream])
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(text.components(separatedBy: ": keep-alive\n").count - 1 >= 2, "\(text)")
            #expect(text.components(separatedBy: "event: prompt\n").count - 1 == 3)
            #expect(text.contains("event: done\n"))
        }
    }

    @Test("Intact: three prompt events, then done; damaged: an error event and no done")
    func replayAsStream() async throws {
        let store = try InMemoryDatabase().open()
        try await withRouterService(store: store) { client in
            let first = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [Self.key])
            #expect(first.status == 200)
            let intact = String(
                decoding: try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [Self.key, Self.stream]).body,
                as: UTF8.self
            )
            #expect(intact.components(separatedBy: "event: prompt\n").count - 1 == 3, "\(intact)")
            #expect(intact.contains("event: done\n"))

            try await store.writer.write { db in try db.execute(sql: "UPDATE idempotentResponse SET body = CAST('{}' AS BLOB)") }
            let damaged = String(
                decoding: try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [Self.key, Self.stream]).body,
                as: UTF8.self
            )
            #expect(damaged.contains("event: error\n"), "\(damaged)")
            #expect(!damaged.contains("event: done"), "\(damaged)")
            #expect(damaged.contains("internal_error"))
        }
    }

    @Test(
        "A streamed first answer under a key is kept before done: a JSON retry replays done's answer; a stream that fails on our side gives its key back"
    )
    func streamedAnswerIsKept() async throws {
        let store = try InMemoryDatabase().open()
        try await withRouterService(store: store) { client in
            let streamed = String(
                decoding: try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [Self.key, Self.stream]).body,
                as: UTF8.self
            )
            let done = try #require(streamed.components(separatedBy: "event: done\ndata: ").dropFirst().first?.components(separatedBy: "\n\n").first)
            let replay = try await client.post("/v1/prompts", json: samplePhotoRequest, headers: [Self.key])
            #expect(replay.headers["idempotent-replayed"] == "true")
            #expect(String(decoding: replay.body, as: UTF8.self) == done)

            try await store.writer.write { db in
                try db.execute(sql: "CREATE TRIGGER refuse_session BEFORE INSERT ON session BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
            }
            let other = (name: "Idempotency-Key", value: "fails-then-runs")
            // Past the cache, so the model is asked and the failure comes after the stream began.
            let failed = try await client.post(
                "/v1/prompts",
                json: samplePhotoRequest(userID: "u_b"),
                headers: [other, Self.stream, ("Cache-Control", "no-cache")]
            )
            let failure = String(decoding: failed.body, as: UTF8.self)
            #expect(failure.contains("event: error\n") && failure.contains("store_unavailable"), "\(failure)")
            try await store.writer.write { db in try db.execute(sql: "DROP TRIGGER refuse_session") }
            // Well inside the claim's lease: only a key given back lets the retry in.
            let retried = try await client.post("/v1/prompts", json: samplePhotoRequest(userID: "u_b"), headers: [other])
            #expect(retried.status == 200, "\(String(decoding: retried.body, as: UTF8.self))")
            #expect(retried.headers["idempotent-replayed"] == nil)
        }
    }
}
