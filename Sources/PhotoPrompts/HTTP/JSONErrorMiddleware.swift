import Hummingbird
import Logging
import PromptDomain
import PromptStores

/// Makes every error leave in the one JSON shape with the trace id; Hummingbird's own become matching ``APIError``s.
/// Our faults are never a 500 but a 503 (`store_unavailable`, `deadline_exceeded`, or logged `internal_error`) with
/// `Retry-After`, so a client knows to try again.
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
