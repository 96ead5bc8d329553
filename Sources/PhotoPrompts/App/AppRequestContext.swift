import Foundation
import Hummingbird
import PromptDomain

/// The request context every route uses: Hummingbird's basic context with stable JSON output and the caller's
/// client key name.
public struct AppRequestContext: ServiceRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The client key's name, once ``ClientKeyMiddleware`` has checked it.
    public var client: String?
    /// Fields for the request's log line.
    public let requestLog = RequestLogFields()
    /// The identity of the connection the request came on.
    public let connection: ObjectIdentifier
    /// The request's trace id, for its error bodies.
    public var traceID: String?
    /// When the request arrived.
    public let receivedAt = ContinuousClock.now
    /// The request's `Idempotency-Key`, once claimed for it.
    public var heldKey: HeldKey?

    /// Creates the context for one request.
    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.connection = ObjectIdentifier(source.channel)
    }

    /// Sorted keys make responses byte-for-byte reproducible, which keeps logs, docs and diffs readable.
    public var responseEncoder: JSONEncoder { JSONResponse.encoder }
}
