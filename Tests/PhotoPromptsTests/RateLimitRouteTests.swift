import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import Testing

/// The token buckets as the routes apply them. The backend cap, which needs a slow model over HTTP, stays in the system layer.
@Suite("Rate limits per user and per client key, through the router, on an injected clock")
struct RateLimitRouteTests {
    @Test(
        "Past 5 a minute, a user's prompt requests are 429 rate_limited with Retry-After; other users are not affected; tokens come back with time"
    )
    func perUser() async throws {
        let clock = ManualWallClock()
        var environment = baseEnvironment()
        environment["RATE_LIMIT_PER_USER"] = "5"
        try await withRouterService(environment, clock: clock) { client in
            let body = #"{"user_id": "u_1", "photo": {"labels": ["kite"]}}"#
            let replies = try await withThrowingTaskGroup(of: ServiceClient.Reply.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await client.post("/v1/prompts", json: body) }
                }
                return try await group.reduce(into: [ServiceClient.Reply]()) { $0.append($1) }
            }
            #expect(replies.filter { $0.status == 200 }.count == 5)
            let refused = replies.filter { $0.status == 429 }
            #expect(refused.count == 7)
            #expect(refused.allSatisfy { $0.errorCode == "rate_limited" })
            // One token every 12 s at 5 a minute.
            #expect(refused.allSatisfy { $0.headers["retry-after"] == "12" })
            #expect(refused.allSatisfy { $0.lookup["retry_after_seconds"].int == 12 })

            let otherUser = try await client.post("/v1/prompts", json: #"{"user_id": "u_2", "photo": {}}"#)
            #expect(otherUser.status == 200)

            clock.advance(by: 12)
            #expect(try await client.post("/v1/prompts", json: body).status == 200)
            #expect(try await client.post("/v1/prompts", json: body).status == 429)
        }
    }

    @Test("A client key has its own budget across all its users")
    func perKey() async throws {
        let clock = ManualWallClock()
        var environment = baseEnvironment()
        environment["RATE_LIMIT_PER_KEY"] = "3"
        try await withRouterService(environment, clock: clock) { client in
            var statuses: [Int] = []
            for user in 0..<5 {
                statuses.append(try await client.post("/v1/prompts", json: #"{"user_id": "u_\#(user)", "photo": {}}"#).status)
            }
            #expect(statuses == [200, 200, 200, 429, 429])
        }
    }
}
