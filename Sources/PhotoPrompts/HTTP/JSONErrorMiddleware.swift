import Hummingbird
import Logging
import PromptDomain
import PromptStores

/// Makes every error leave the service in the one JSON shape, with the request's trace id, and keeps internals out
/// of 500s.
///
/// Hummingbird's own errors (unknown route, body too large) become ``APIError``s with a matching code. Faults on
/// our side are never a 500: a database that cannot read or write is `503 store_unavailable`, a request whose
/// work outlived its deadline is `503 deadline_exceeded`, anything else is logged with its detail and answered
/// `503 internal_error`; each with `Retry-After`, so a client knows to try again.
public struct JSONErrorMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            var answer = APIError.translating(error, logger: context.logger)
            answer.traceID = context.traceID
            throw answer
        }
    }
}

extension APIError {
    /// The answer for `error`: an ``APIError`` as it is, anything else translated and, when it is our fault, logged.
    /// The middleware's, and a streamed answer's once its body has begun.
    static func translating(_ error: any Error, logger: Logger) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as any HTTPResponseError:
            return APIError.matching(error.status)
        case is ClientDeparted:
            // No one reads this answer; its status is for the log line, as nginx writes it.
            return APIError.clientClosedRequest
        case let error as DeadlinePassed:
            logger.error("request deadline passed", metadata: ["error": "\(error)"])
            return APIError.deadlineExceeded
        default:
            if let fault = StoreFault(error) {
                logger.error("store unavailable", metadata: ["reason": "\(fault.reason)"])
                return APIError.storeUnavailable
            }
            logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return APIError.internalFault
        }
    }
}
