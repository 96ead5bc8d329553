/// Why a backend produced no usable reply.
///
/// A struct over a private enum, so failure kinds can grow without breaking callers; callers only need to know
/// whether it was a timeout, which the app words differently.
public struct BackendError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case timedOut
        case unreachable
        case httpStatus(Int)
        case unreadableReply
    }

    private let kind: Kind
    /// Detail for logs; never shown to users and never containing credentials.
    public let detail: String

    private init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The backend did not answer in time.
    public static func timedOut(_ detail: String) -> BackendError { .init(.timedOut, detail: detail) }
    /// No connection could be made.
    public static func unreachable(_ detail: String) -> BackendError { .init(.unreachable, detail: detail) }
    /// The backend answered with a non-2xx status.
    public static func httpStatus(_ status: Int, detail: String) -> BackendError { .init(.httpStatus(status), detail: detail) }
    /// The body was not the expected JSON.
    public static func unreadableReply(_ detail: String) -> BackendError { .init(.unreadableReply, detail: detail) }

    /// Whether the failure was running out of time.
    public var isTimeout: Bool {
        if case .timedOut = kind { return true }
        return false
    }

    /// A one-line summary for logs.
    public var description: String {
        switch kind {
        case .timedOut: "timed out: \(detail)"
        case .unreachable: "unreachable: \(detail)"
        case .httpStatus(let status): "HTTP \(status): \(detail)"
        case .unreadableReply: "unreadable reply: \(detail)"
        }
    }
}
