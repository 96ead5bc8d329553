import Hummingbird

/// Requires `Authorization: Bearer <key>` with one of the configured client keys, and records the key's name.
/// With no keys every request passes: start-up has made sure the service then listens on loopback only.
struct ClientKeyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let keys: ClientKeys

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !keys.isEmpty else { return try await next(request, context) }
        guard let token = request.bearerToken, let client = keys.client(presenting: token) else {
            throw APIError.clientUnauthorized
        }
        var context = context
        context.client = client
        return try await next(request, context)
    }
}

extension APIError {
    static let clientUnauthorized = APIError(.unauthorized, code: "unauthorized", message: "Send a client API key as Authorization: Bearer <key>.")
}
