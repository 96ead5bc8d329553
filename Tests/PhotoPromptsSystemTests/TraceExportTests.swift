import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

extension SystemTests {
    /// The service exporting its traces to an OTLP receiver it did not write: scripts/otlp/receiver.py, on the
    /// protocol's definitions from PyPI (`make otlp`), over OTLP/HTTP and OTLP/gRPC. The process is the point: the
    /// standard `OTEL_*` variables are read by `photo-prompts serve` alone.
    @Suite("OTLP export: one request's spans reach a real receiver, under the app's trace, with no user text")
    struct TraceExportTests {
        static let python = repositoryDirectory + "/.models/otlp/bin/python"
        static let appTrace = "0af7651916cd43dd8448eb211c80319c"
        static let appSpan = "b7ad6b7169203331"

        @Test(
            "A request's spans, their parent and attributes, in the receiver; its log lines and error bodies name the trace",
            arguments: ["http/protobuf", "grpc"]
        )
        func exportedSpans(protocol otlpProtocol: String) async throws {
            guard FileManager.default.isExecutableFile(atPath: Self.python) else {
                try MissingDependency.skipOrFail("the OTLP receiver's Python in .models/otlp: `make otlp` installs it from PyPI")
            }
            let caption = "secret-caption-\(UUID().uuidString)"
            let apiKey = "sk-\(UUID().uuidString)"
            let tracingKey = "tk-\(UUID().uuidString)"
            let userID = "u_\(UUID().uuidString.prefix(8))"
            let out = scratchPath("otlp-spans.jsonl").path
            let (httpPort, grpcPort) = (try freeLoopbackPort(), try freeLoopbackPort())
            let receiver = try ChildProcess(
                URL(fileURLWithPath: Self.python),
                arguments: [
                    repositoryDirectory + "/scripts/otlp/receiver.py", "--http-port", "\(httpPort)", "--grpc-port", "\(grpcPort)", "--out", out,
                ]
            )
            defer { kill(receiver.processIdentifier, SIGKILL) }
            _ = try await receiver.firstLine(matching: { $0.hasPrefix("ready") }, timeout: .seconds(30))
            try await withStubLLM { stub in
                let service = try ChildProcess(
                    try builtProduct("photo-prompts"),
                    environment: [
                        "HTTP_PORT": "0", "DATABASE_PATH": temporaryDatabasePath(), "PROMPTS_DIRECTORY": repositoryPromptsDirectory,
                        "LOG_FORMAT": "json", "LLM_API_KEY": apiKey,
                        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(otlpProtocol == "grpc" ? grpcPort : httpPort)",
                        "OTEL_EXPORTER_OTLP_PROTOCOL": otlpProtocol, "OTEL_SERVICE_NAME": "photo-prompts-under-test",
                        "OTEL_BSP_SCHEDULE_DELAY": "100",
                        // The tracing backend's key, with swift-otel's own lines on: they name the variable, never its value.
                        "OTEL_EXPORTER_OTLP_HEADERS": "x-tracing-key=\(tracingKey)", "OTEL_LOG_LEVEL": "info",
                    ].merging(stub.backendEnvironment(provider: "openai")) { $1 }
                )
                defer { service.terminate() }
                let client = ServiceClient(port: try await service.listeningPort())
                let parent = [(name: "traceparent", value: "00-\(Self.appTrace)-\(Self.appSpan)-01")]
                let body = #"{"user_id": "\#(userID)", "photo": {"caption": "\#(caption)", "labels": ["kite", "beach"]}}"#
                let answer = try await client.post("/v1/prompts", json: body, headers: parent)
                #expect(answer.status == 200)
                let invalid = try await client.post("/v1/prompts", json: #"{"photo": 7}"#, headers: parent)
                #expect(invalid.errorCode == "invalid_request")
                #expect(JSONLookup(try invalid.json)["error", "trace_id"].string == Self.appTrace)

                // The request's own span ends last, when its body is written: it may come in a later batch.
                let spans = try await Self.spans(in: out) { spans in
                    spans.contains { $0["name"] as? String == "POST /v1/prompts" && $0["parent_span_id"] as? String == Self.appSpan }
                }
                let mine = spans.filter { $0["trace_id"] as? String == Self.appTrace }
                let server = try #require(
                    mine.first { $0["name"] as? String == "POST /v1/prompts" && $0["parent_span_id"] as? String == Self.appSpan }
                )
                #expect(server["kind"] as? Int == 2, "SPAN_KIND_SERVER")
                #expect(server["service"] as? String == "photo-prompts-under-test")
                #expect(server["protocol"] as? String == otlpProtocol)
                let names = Set(mine.compactMap { $0["name"] as? String })
                for step in ["read body", "plan", "history and cache read", "single-flight", "model call", "gate", "store write"] {
                    #expect(names.contains(step), "no \(step) span: \(names.sorted())")
                }
                let call = try #require(mine.first { $0["name"] as? String == "model call" })
                let attributes = try #require(call["attributes"] as? [String: Any])
                #expect(attributes["gen_ai.system"] as? String == "openai")
                #expect(attributes["gen_ai.request.model"] as? String == "stub-openai")
                #expect(attributes["photo_prompts.outcome"] as? String == "ok")
                #expect((attributes["photo_prompts.template_version"] as? String)?.hasPrefix("photo-journal@") == true)
                // The provider was told the model call's span as its parent.
                let told = try #require(await stub.state.lastTraceparent)
                #expect(told == "00-\(Self.appTrace)-\(call["span_id"] as? String ?? "?")-01")

                service.terminate()
                let (_, logs) = try await service.waitForExit()
                let line = try #require(
                    logs.split(separator: "\n").first { $0.contains(#""route":"/v1/prompts""#) && $0.contains(#""status":"200""#) }
                )
                let logged = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(logged["trace_id"] as? String == Self.appTrace)
                #expect(logged["span_id"] as? String == server["span_id"] as? String)
                #expect(logs.contains("OTEL_EXPORTER_OTLP_TRACES_HEADERS"), "swift-otel's lines at info say what it read")
                for secret in [tracingKey, apiKey, caption] {
                    #expect(!logs.contains(secret), "a log line holds \(secret)")
                }
                let exported = try String(contentsOfFile: out, encoding: .utf8)
                let prompts = try answer.decode(PromptsResponse.self).prompts.map(\.text)
                for secret in [caption, apiKey, userID, "kite"] + prompts {
                    #expect(!exported.contains(secret), "a span holds \(secret)")
                }
            }
        }

        /// The receiver's spans, once `done` holds for them (within 10 s).
        static func spans(in path: String, until done: ([[String: Any]]) -> Bool) async throws -> [[String: Any]] {
            let deadline = ContinuousClock.now + .seconds(10)
            while true {
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                let spans = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                if done(spans) || ContinuousClock.now > deadline { return spans }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}
