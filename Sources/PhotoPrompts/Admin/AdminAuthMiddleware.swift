import Crypto
import Hummingbird

/// Lets a request through to `/admin` only with `Authorization: Bearer <ADMIN_API_KEY>`.
///
/// Both sides are hashed first and the digests compared in constant time, so neither the key's length nor how many
/// leading bytes a guess got right shows in the response time. Only the digest is kept in memory.
struct AdminAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    private let keyDigest: [UInt8]

    init(adminKey: String) {
        keyDigest = Array(SHA256.hash(data: Array(adminKey.utf8)))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = request.bearerToken else { throw APIError.adminUnauthorized }
        let presented = Array(SHA256.hash(data: Array(token.utf8)))
        guard Self.constantTimeEqual(presented, keyDigest) else { throw APIError.adminUnauthorized }
        return try await next(request, context)
    }

    /// Compares every byte whatever the outcome; both digests are 32 bytes.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }
}

extension APIError {
    static let adminUnauthorized = APIError(.unauthorized, code: "unauthorized", message: "Send the admin key as Authorization: Bearer <key>.")
}
