import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

@Suite("taken_at accepts exactly RFC 3339 date-times, as openapi.yaml's format: date-time says")
struct TimestampTests {
    @Test(
        "Valid RFC 3339 values are accepted",
        arguments: [
            "2026-11-21T17:42:00Z", "2026-11-21t17:42:00z", "2026-11-21T17:42:00.1+19:40", "1611-11-30T19:13:51.123456-04:16",
            "2024-02-29T00:00:00Z", "2016-12-31T23:59:60Z", "0001-01-01T00:00:00+00:00",
        ]
    )
    func accepted(_ takenAt: String) async throws {
        try await withRouterService(baseEnvironment()) { client in
            let reply = try await client.post("/v1/prompts", json: #"{"photo": {"taken_at": "\#(takenAt)"}}"#)
            #expect(reply.status == 200, "\(takenAt)")
        }
    }

    @Test(
        "Anything else is 400 naming photo.taken_at",
        arguments: [
            "2026-11-21", "2026-11-21T17:42:00", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-21T24:00:00Z",
            "2026-11-21T17:42:00+24:00", "2026-11-21 17:42:00Z", "yesterday",
        ]
    )
    func refused(_ takenAt: String) async throws {
        try await withRouterService(baseEnvironment()) { client in
            let reply = try await client.post("/v1/prompts", json: #"{"photo": {"taken_at": "\#(takenAt)"}}"#)
            #expect(reply.status == 400, "\(takenAt)")
            #expect(reply.errorDetails == ["photo.taken_at"])
        }
    }
}
