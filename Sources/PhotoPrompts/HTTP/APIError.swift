import Foundation
import Hummingbird
import PromptDomain
import PromptTemplates

/// An error the client sees, always rendered as `{"error": {"code", "message", "details", "trace_id"}}`. Refusals
/// with session counts add `refreshes_used` and `refreshes_remaining`, so the app updates without another call.
public struct APIError: HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    /// A stable, machine-readable code, e.g. `invalid_request`.
    public let code: String
    /// A sentence for developers, or the app's own copy where the product spec gives one.
    public let message: String
    /// Specifics, e.g. which field was wrong.
    public let details: [String]
    public let refreshCounts: RefreshCounts?
    /// Whole seconds to wait before retrying (429, 409, 503), sent as `Retry-After` and `retry_after_seconds`.
    public let retryAfterSeconds: Int?
    /// For 405: the methods the route has, sent as `Allow`.
    public var allowedMethods: [String] = []
    /// The language `message` is written in, when it is the product's copy (the refresh limit), as `copy_locale`.
    public var copyLocale: String?
    /// Sent with `Connection: close`: answered before the request's body was read, so the connection cannot be reused.
    public var closesConnection = false
    /// The request's trace id, so support can go from the error the app shows to the request's trace and logs.
    public var traceID: String?

    /// Refresh counts reported with a refusal.
    public struct RefreshCounts: Sendable {
        public var used: Int
        public var remaining: Int
    }

    public init(
        _ status: HTTPResponse.Status,
        code: String,
        message: String,
        details: [String] = [],
        refreshCounts: RefreshCounts? = nil,
        retryAfterSeconds: Int? = nil
    ) {
        self.retryAfterSeconds = retryAfterSeconds
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.refreshCounts = refreshCounts
    }

    /// 400: a field is missing, of the wrong type, or out of range. `field` is its JSON path, e.g. `photo.people_count`.
    public static func invalidField(_ field: String, _ problem: String) -> APIError {
        APIError(.badRequest, code: "invalid_request", message: "\(field): \(problem)", details: [field])
    }

    public static let sessionNotFound = APIError(.notFound, code: "session_not_found", message: "No such session, or it has expired.")

    public static let promptNotFound = APIError(.notFound, code: "prompt_not_found", message: "This session never showed that prompt.")

    /// 429 once the refreshes are spent, with the app's copy in the session's language.
    public static func refreshLimitReached(used: Int, limit: Int, copy: ProductCopy) -> APIError {
        var error = APIError(
            .tooManyRequests,
            code: "refresh_limit_reached",
            message: copy.refreshLimitMessage,
            refreshCounts: RefreshCounts(used: used, remaining: max(0, limit - used))
        )
        error.copyLocale = copy.locale.description
        return error
    }

    /// 409: another refresh of this session still ran when this one's deadline came.
    public static let refreshInProgress = APIError(
        .conflict,
        code: "refresh_in_progress",
        message: "Another refresh of this session is still running. Retry after a moment.",
        retryAfterSeconds: 1
    )

    /// 409: refreshes still running would take the count to the limit; `used` are delivered, and the limit copy is
    /// not shown, since the running one may yet fail and give its slot back.
    public static func refreshPending(used: Int, limit: Int, retryAfterSeconds: Int) -> APIError {
        APIError(
            .conflict,
            code: "refresh_in_progress",
            message: "Another refresh of this session is still running. Retry when it is done.",
            refreshCounts: RefreshCounts(used: used, remaining: max(0, limit - used)),
            retryAfterSeconds: retryAfterSeconds
        )
    }

    /// 503: the database could not read or write just now (locked, full, failing, unreachable).
    public static let storeUnavailable = APIError(
        .serviceUnavailable,
        code: "store_unavailable",
        message: "The service cannot reach its storage right now. Retry in a moment.",
        retryAfterSeconds: 2
    )

    /// 503: the request's work did not finish by its deadline (`LLM_TIMEOUT` and a little more).
    public static let deadlineExceeded = APIError(
        .serviceUnavailable,
        code: "deadline_exceeded",
        message: "The service could not finish this request in time. Retry in a moment.",
        retryAfterSeconds: 1
    )

    /// 499, nginx's "client closed request": no one reads it; the status is for the log line and the metrics.
    public static let clientClosedRequest = APIError(
        .init(code: 499, reasonPhrase: "Client Closed Request"),
        code: "client_closed_request",
        message: "The client closed the connection before the answer was ready."
    )

    /// 503: a fault on our side that has no better name; the log holds its detail.
    public static let internalFault = APIError(
        .serviceUnavailable,
        code: "internal_error",
        message: "Something went wrong on our side. Retry in a moment.",
        retryAfterSeconds: 1
    )

    /// 400: bytes that are not a well-formed HTTP request (a bad chunk size, a broken header line).
    static var malformedRequest: APIError {
        APIError(.badRequest, code: "malformed_request", message: "The request is not well-formed HTTP.").closingConnection()
    }

    /// 431: a URL or headers longer than the server reads.
    static var headersTooLarge: APIError {
        APIError(.requestHeaderFieldsTooLarge, code: "headers_too_large", message: "The URL or headers are too long.").closingConnection()
    }

    /// 413 for a body over 64 KiB, declared or sent, answered without reading the rest.
    static var bodyTooLarge: APIError { matching(.contentTooLarge).closingConnection() }

    /// 408: the body stopped arriving for `HTTP_READ_TIMEOUT`.
    static func bodyTimedOut(after timeout: Duration) -> APIError {
        let message = "The request body did not arrive within \(timeout.components.seconds) s."
        return APIError(.requestTimeout, code: "request_timeout", message: message).closingConnection()
    }

    /// 503: more connections are open than `HTTP_MAX_CONNECTIONS`.
    static func tooManyConnections(_ maximum: Int) -> APIError {
        let message = "The server has \(maximum) connections open. Retry in a moment."
        return APIError(.serviceUnavailable, code: "too_many_connections", message: message, retryAfterSeconds: 1).closingConnection()
    }

    private func closingConnection() -> APIError {
        var error = self
        error.closesConnection = true
        return error
    }

    /// The error in this shape for a status Hummingbird produced itself (unknown route, body too large).
    public static func matching(_ status: HTTPResponse.Status) -> APIError {
        switch status {
        case .notFound:
            APIError(.notFound, code: "not_found", message: "No such route.")
        case .methodNotAllowed:
            APIError(.methodNotAllowed, code: "method_not_allowed", message: "This route does not accept that method.")
        case .contentTooLarge:
            APIError(.contentTooLarge, code: "payload_too_large", message: "The body is larger than 64 KiB.")
        default:
            APIError(status, code: "http_\(status.code)", message: status.reasonPhrase)
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfterSeconds { headers[.retryAfter] = "\(retryAfterSeconds)" }
        if !allowedMethods.isEmpty { headers[.allow] = allowedMethods.joined(separator: ", ") }
        if closesConnection { headers[.connection] = "close" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encodedBody())))
    }

    /// The JSON body's bytes, e.g. to keep for an idempotent replay.
    public func encodedBody() throws -> Data {
        let body = Body(
            error: .init(code: code, message: message, details: details, traceID: traceID),
            refreshesUsed: refreshCounts?.used,
            refreshesRemaining: refreshCounts?.remaining,
            retryAfterSeconds: retryAfterSeconds,
            copyLocale: copyLocale
        )
        return try SnakeCaseJSON.encoder.encode(body)
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var details: [String]
            var traceID: String?
        }
        var error: Detail
        var refreshesUsed: Int?
        var refreshesRemaining: Int?
        var retryAfterSeconds: Int?
        var copyLocale: String?
    }
}
