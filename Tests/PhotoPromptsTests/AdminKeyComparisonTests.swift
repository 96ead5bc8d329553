import Crypto
import PhotoPromptsTestSupport
import Testing

@testable import PhotoPrompts

/// The admin key is compared on every byte of its digest: a wrong key that shares any one byte of the right key's
/// digest, the last one included, is refused like any other.
@Suite("The admin key: every byte of its digest counts")
struct AdminKeyComparisonTests {
    /// The right key's SHA-256, worked out here.
    static let rightDigest = Array(SHA256.hash(data: Array(testAdminKey.utf8)))

    /// A wrong key whose digest has the right key's byte at `position` (and, by chance, maybe others): found by trying
    /// `wrong-<n>` until one does, about 256 tries.
    static func wrongKey(sharingByteAt position: Int) -> String {
        var number = 0
        while true {
            let candidate = "wrong-\(number)"
            if Array(SHA256.hash(data: Array(candidate.utf8)))[position] == rightDigest[position] { return candidate }
            number += 1
        }
    }

    @Test("A wrong key whose digest ends, or begins, like the right one's is 401 on /admin and /metrics", arguments: [31, 0])
    func sharedByteIsRefused(position: Int) async throws {
        let wrong = Self.wrongKey(sharingByteAt: position)
        try #require(wrong != testAdminKey)
        let prompts = try TemporaryPrompts()
        try await withRouterService(operatorEnvironment(prompts: prompts)) { client in
            let admin = try await client.admin("GET", "/templates", key: wrong)
            let metrics = try await client.send("GET", "/metrics", headers: [("Authorization", "Bearer \(wrong)")])
            let right = try await client.admin("GET", "/templates")
            #expect(admin.status == 401)
            #expect(metrics.status == 401)
            #expect(right.status == 200)
        }
    }
}
