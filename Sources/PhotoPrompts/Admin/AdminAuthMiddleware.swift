import Crypto
import Hummingbird

/// Lets a request through to `/admin` only with `Authorization: Bearer <ADMIN_API_KEY>`.
///
/// Both sides are hashed first and the digests compared by swift-crypto's `==`, in constant time, so neither the
/// key's length nor how many leading bytes a guess got right shows in the response time. Only the digest is kept.
struct AdminAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    private let keyDigest: [UInt8]

    init(adminKey: String) {
        keyDigest = Array(SHA256.hash(data: Array(adminKey.utf8)))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = request.bearerToken, SHA256.hash(data: Array(token.utf8)) == keyDigest else { throw APIError.adminUnauthorized }
        return try await next(request, context)
    }
}

extension APIError {
    static let adminUnauthorized = APIError(.unauthorized, code: "unauthorized", message: "Send the admin key as Authorization: Bearer <key>.")
}
