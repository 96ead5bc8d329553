import Crypto
import Hummingbird

/// Admits `/admin` requests only with `Authorization: Bearer <ADMIN_API_KEY>`; only the key's digest is kept.
/// Digests compare in constant time, so response time shows neither the key's length nor a guess's right prefix.
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
