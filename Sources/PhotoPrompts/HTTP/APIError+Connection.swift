import Hummingbird

extension APIError {
    /// 400: bytes that are not a well-formed HTTP request (a bad chunk size, a broken header line).
    static var malformedRequest: APIError {
        var error = APIError(.badRequest, code: "malformed_request", message: "The request is not well-formed HTTP.")
        error.closesConnection = true
        return error
    }

    /// 431: a URL or headers longer than the server reads.
    static var headersTooLarge: APIError {
        var error = APIError(.requestHeaderFieldsTooLarge, code: "headers_too_large", message: "The URL or headers are too long.")
        error.closesConnection = true
        return error
    }

    /// 413 for a body over 64 KiB, declared or sent, answered without reading the rest.
    static var bodyTooLarge: APIError {
        var error = APIError.matching(.contentTooLarge)
        error.closesConnection = true
        return error
    }

    /// 408: the body stopped arriving for `HTTP_READ_TIMEOUT`.
    static func bodyTimedOut(after timeout: Duration) -> APIError {
        var error = APIError(
            .requestTimeout,
            code: "request_timeout",
            message: "The request body did not arrive within \(timeout.components.seconds) s."
        )
        error.closesConnection = true
        return error
    }

    /// 503: more connections are open than `HTTP_MAX_CONNECTIONS`.
    static func tooManyConnections(_ maximum: Int) -> APIError {
        var error = APIError(
            .serviceUnavailable,
            code: "too_many_connections",
            message: "The server has \(maximum) connections open. Retry in a moment.",
            retryAfterSeconds: 1
        )
        error.closesConnection = true
        return error
    }
}
