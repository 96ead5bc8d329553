import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

extension SystemTests {
    @Suite("Seen from outside: readiness, Prometheus metrics, and one structured log line per request")
    struct ObservabilityTests {
        @Test("/readyz is 200 with its checks, and stays 200 (reporting the backends) when every backend's breaker is open")
        func readiness() async throws {
            try await withStubLLM(.serverError) { stub in
                var environment = testEnvironment(stub: stub)
                environment["BREAKER_FAILURES"] = "1"
                environment["BREAKER_COOLDOWN"] = "60"
                try await withService(environment) { client in
                    let ready = try await client.send("GET", "/readyz")
                    #expect(ready.status == 200)
                    #expect(ready.lookup["checks", "database"].string == "ok")
                    #expect(ready.lookup["checks", "templates"].string?.hasPrefix("photo-journal@") == true)
                    _ = try await client.startSession()
                    // The provider is shared by every instance: draining them all would turn fallbacks into no answer.
                    let backendsDown = try await client.send("GET", "/readyz")
                    #expect(backendsDown.status == 200)
                    #expect(backendsDown.lookup["status"].string == "ready")
                    #expect(backendsDown.lookup["checks", "backends"].string == "0 of 1 available")
                }
            }
        }

        @Test(
            "LOG_FORMAT=json writes one line per request with route, status, latency, source, template, backend and cache, and never the caption, a prompt or a key",
            arguments: ["json", "logfmt"]
        )
        func requestLogLines(format: String) async throws {
            let caption = "secret-caption-\(UUID().uuidString)"
            let adminKey = "admin-\(UUID().uuidString)"
            try await withStubLLM { stub in
                let service = try ChildProcess(
                    try builtProduct("photo-prompts"),
                    environment: [
                        "HTTP_PORT": "0", "DATABASE_PATH": temporaryDatabasePath(), "PROMPTS_DIRECTORY": repositoryPromptsDirectory,
                        "LOG_FORMAT": format, "ADMIN_API_KEY": adminKey, "LLM_API_KEY": "sk-\(UUID().uuidString)",
                    ].merging(stub.backendEnvironment(provider: "openai")) { $1 }
                )
                let client = ServiceClient(port: try await service.listeningPort())
                let answer = try await client.startSession(#"{"user_id": "u_1", "photo": {"caption": "\#(caption)", "labels": ["kite"]}}"#)
                _ = try await client.send("GET", "/v1/sessions/\(answer.sessionID)")
                let line = try await service.firstLine { $0.contains("/v1/prompts") && $0.contains("request") }
                service.terminate()
                let (_, output) = try await service.waitForExit()
                if format == "json" {
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                    #expect(object["route"] as? String == "/v1/prompts")
                    #expect(object["status"] as? String == "200")
                    #expect(object["source"] as? String == "model")
                    #expect(object["cache"] as? String == "miss")
                    #expect(object["backend"] as? String == "openai/stub-openai")
                    #expect((object["template"] as? String)?.hasPrefix("photo-journal@") == true)
                    #expect(object["latency_ms"] != nil)
                    #expect(object["hb.request.id"] != nil)
                } else {
                    #expect(line.contains(" route=/v1/prompts "))
                    #expect(line.contains(" status=200"))
                    #expect(line.contains(" source=model "))
                    #expect(line.contains(" msg=request "))
                }
                #expect(output.contains("route=/v1/sessions/{session_id}") || output.contains(#""route":"/v1/sessions/{session_id}""#))
                #expect(!output.contains(answer.sessionID), "paths carry session ids; only the route pattern is logged")
                #expect(!output.contains(caption))
                #expect(!answer.prompts.contains { output.contains($0.text) })
                #expect(!output.contains(adminKey))
            }
        }
    }
}
