import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

/// `/metrics` as Prometheus scrapes it; readiness and the request log lines, which need the process, stay in the
/// system layer's ObservabilityTests.
@Suite("Prometheus metrics, through the router")
struct MetricsRouteTests {
    @Test("GET /metrics needs the admin key and counts requests, cache, backends, fallbacks, rejections and limits")
    func metrics() async throws {
        let stub = StubBehaviourBackend(.mixed, provider: "openai", model: "stub-model")
        let prompts = try TemporaryPrompts()
        var environment = operatorEnvironment(prompts: prompts)
        environment["SESSIONS_REFRESH_LIMIT"] = "0"
        environment["RATE_LIMIT_PER_USER"] = "3"
        try await withRouterService(environment, backends: [stub]) { client in
            #expect(try await client.send("GET", "/metrics").status == 401)
            let first = try await client.startSession()
            // Another user's request is the cache hit: this user's history keeps them from meeting it again.
            _ = try await client.asUser("u_other").startSampleSession()
            // This user's second and third prompt requests meet the refresh limit; the fourth, the rate limit.
            for _ in 0..<3 { _ = try await client.refresh(first.sessionID) }
            await stub.set(.serverError)
            _ = try await client.startSession(#"{"user_id": "u_2", "photo": {"labels": ["x"]}}"#)
            let scrape = try await client.send("GET", "/metrics", headers: [("Authorization", "Bearer \(testAdminKey)")])
            #expect(scrape.headers["content-type"]?.hasPrefix("text/plain") == true)
            let text = String(decoding: scrape.body, as: UTF8.self)
            for expected in [
                #"photoprompts_http_requests_total{route="/v1/prompts",method="POST",status="200"} 3"#,
                #"photoprompts_http_requests_total{route="/v1/sessions/{session_id}/refresh",method="POST",status="429"} 3"#,
                #"photoprompts_cache_lookups_total{result="hit"} 1"#,
                #"photoprompts_fallbacks_total{reason="backend_error"} 1"#,
                #"photoprompts_refresh_limit_hits_total 2"#,
                #"photoprompts_rate_limit_hits_total{scope="user"} 1"#,
                #"photoprompts_breaker_open{backend="openai/stub-model"} 0"#,
                #"photoprompts_backend_in_flight 0"#,
            ] {
                #expect(text.contains(expected), "\(expected)")
            }
            #expect(text.contains(#"photoprompts_rejections_total{reason="too_short"}"#))
            #expect(text.contains(#"photoprompts_backend_calls_total{backend="openai/stub-model",outcome="ok"}"#))
            #expect(text.contains("photoprompts_backend_call_duration_seconds_bucket"))
        }
    }
}
