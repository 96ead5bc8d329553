import Hummingbird
import Logging

/// Makes every error leave the service in the one JSON shape, and keeps internals out of 500s.
///
/// Hummingbird's own errors (unknown route, body too large) become ``APIError``s with a matching code; anything
/// unexpected is logged with its detail and answered with a bare `internal_error`.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Passes the request on and translates any error it throws.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as any HTTPResponseError {
            throw APIError.matching(error.status)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            throw APIError(.internalServerError, code: "internal_error", message: "Something went wrong on our side.")
        }
    }
}
