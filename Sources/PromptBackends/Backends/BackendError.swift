import Foundation

/// Why a backend produced no usable reply.
///
/// A struct over a private enum, so failure kinds can grow without breaking callers. Callers ask only what they
/// act on: was it a timeout (the app words it differently), and did the backend ask us to wait (`Retry-After`).
public struct BackendError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case timedOut
        case unreachable
        case httpStatus(Int)
        case rateLimited(retryAfter: TimeInterval?)
        case unreadableReply
    }

    private let kind: Kind
    /// Detail for logs; never shown to users and never containing credentials.
    public let detail: String

    private init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public static func timedOut(_ detail: String) -> BackendError { .init(.timedOut, detail: detail) }
    /// No connection could be made, or the name did not resolve.
    public static func unreachable(_ detail: String) -> BackendError { .init(.unreachable, detail: detail) }
    /// The backend answered with a non-2xx status other than 429.
    public static func httpStatus(_ status: Int, detail: String) -> BackendError { .init(.httpStatus(status), detail: detail) }
    /// The backend answered 429, with its `Retry-After` in seconds if it sent one.
    public static func rateLimited(retryAfter: TimeInterval?, detail: String) -> BackendError {
        .init(.rateLimited(retryAfter: retryAfter), detail: detail)
    }
    /// The body was not the expected JSON, or was cut off.
    public static func unreadableReply(_ detail: String) -> BackendError { .init(.unreadableReply, detail: detail) }

    public var isTimeout: Bool {
        if case .timedOut = kind { return true }
        return false
    }

    /// The kind of failure, for metrics and logs. A bad key, an unknown model and a refused parameter are told apart
    /// by the provider's own message in ``detail``.
    public var outcome: String {
        switch kind {
        case .timedOut: "timeout"
        case .unreachable: "connection"
        case .rateLimited: "rate_limited"
        case .unreadableReply: "unreadable"
        case .httpStatus(401), .httpStatus(403): "auth"
        case .httpStatus(500...): "server_error"
        case .httpStatus: "bad_request"
        }
    }

    /// A 400: the provider refused the request as written. ``detail`` holds its message, which names the parameter.
    public var isBadRequest: Bool {
        if case .httpStatus(400) = kind { return true }
        return false
    }

    /// How long the backend asked us to stay away, from a 429's `Retry-After`.
    public var retryAfter: TimeInterval? {
        if case .rateLimited(let retryAfter) = kind { return retryAfter }
        return nil
    }

    public var description: String {
        switch kind {
        case .timedOut: "timed out: \(detail)"
        case .unreachable: "unreachable: \(detail)"
        case .httpStatus(let status): "HTTP \(status): \(detail)"
        case .rateLimited(let retryAfter): "HTTP 429, retry after \(retryAfter.map { "\($0) s" } ?? "unspecified"): \(detail)"
        case .unreadableReply: "unreadable reply: \(detail)"
        }
    }
}
