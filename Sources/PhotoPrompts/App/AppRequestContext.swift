import Foundation
import Hummingbird
import PromptDomain

/// The request context every route uses: Hummingbird's basic context with stable JSON output, the caller's client
/// key name, and what the request's layers hand each other.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The key's name, set by ``ClientKeyMiddleware``; `nil` while the service runs without keys.
    public var client: String?
    /// What handlers add to the request's one log line.
    public let requestLog = RequestLogFields()
    /// The identity of the connection the request came on: where the app's ``ClientDepartures`` finds the
    /// ``ClientDeparture`` that fires when the client has gone, so the work for it stops.
    public let connection: ObjectIdentifier
    /// The request's W3C trace id, set by ``RequestTracingMiddleware``: the caller's when a `traceparent` came.
    public var traceID: String?
    /// When the request arrived: its deadline is counted from here, by every step that waits for it.
    public let receivedAt = ContinuousClock.now
    /// The request's `Idempotency-Key`, held by ``IdempotencyMiddleware``: where a streamed answer is kept.
    public var heldKey: HeldKey?

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.connection = ObjectIdentifier(source.channel)
    }

    /// Sorted snake_case keys: responses are byte-for-byte reproducible, which keeps logs, docs and diffs readable.
    public var responseEncoder: JSONEncoder { SnakeCaseJSON.encoder }
}
