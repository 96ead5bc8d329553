import Hummingbird

/// A request context that knows which client key it came with, and collects the fields of its log line.
public protocol ServiceRequestContext: RequestContext {
    /// The key's name, set by ``ClientKeyMiddleware``; `nil` while the service runs without keys.
    var client: String? { get set }
    /// What handlers add to the request's one log line.
    var requestLog: RequestLogFields { get }
}

/// Requires `Authorization: Bearer <key>` with one of the configured client keys, and records the key's name.
///
/// With no keys configured every request passes; start-up has already made sure the service then listens on
/// loopback only.
struct ClientKeyMiddleware<Context: ServiceRequestContext>: RouterMiddleware {
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
    /// 401 for `/v1` without a configured client key.
    static let clientUnauthorized = APIError(.unauthorized, code: "unauthorized", message: "Send a client API key as Authorization: Bearer <key>.")
}
