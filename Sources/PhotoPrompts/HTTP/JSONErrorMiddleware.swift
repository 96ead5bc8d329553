import Hummingbird
import Logging

/// Makes every error leave the service in the one JSON shape, and keeps internals out of 500s.
///
/// Hummingbird's own errors (unknown route, body too large) become ``APIError``s with a matching code. Faults on
/// our side are never a 500: a database that cannot read or write is `503 store_unavailable`, a request whose
/// work outlived its deadline is `503 deadline_exceeded`, anything else is logged with its detail and answered
/// `503 internal_error`; each with `Retry-After`, so a client knows to try again.
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
        } catch let error as DeadlinePassed {
            context.logger.error("request deadline passed", metadata: ["error": "\(error)"])
            throw APIError.deadlineExceeded
        } catch {
            if let fault = StoreFault(error) {
                context.logger.error("store unavailable", metadata: ["reason": "\(fault.reason)"])
                throw APIError.storeUnavailable
            }
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            throw APIError.internalFault
        }
    }
}
