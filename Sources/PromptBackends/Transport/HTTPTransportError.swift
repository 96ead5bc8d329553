/// Why an HTTP transfer produced no complete response.
public struct HTTPTransportError: Error, Sendable, CustomStringConvertible {
    /// The broad class of failure, which decides how the caller reports it.
    public enum Kind: Sendable, Equatable {
        case timedOut
        /// The host name did not resolve, or no connection could be made.
        case connectionFailed
        case responseTooLarge
        case other
    }

    public let kind: Kind
    /// A human-readable detail for logs, never shown to end users.
    public let detail: String

    public var description: String { "\(kind): \(detail)" }
}
