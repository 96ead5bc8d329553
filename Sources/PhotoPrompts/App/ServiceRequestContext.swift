import Hummingbird
import PromptDomain

/// A request context that knows which client key it came with, and collects the fields of its log line.
public protocol ServiceRequestContext: RequestContext {
    /// The key's name, set by ``ClientKeyMiddleware``; `nil` while the service runs without keys.
    var client: String? { get set }
    /// What handlers add to the request's one log line.
    var requestLog: RequestLogFields { get }
    /// The identity of the connection the request came on: where the app's ``ClientDepartures`` finds the
    /// ``ClientDeparture`` that fires when the client has gone, so the work for it stops.
    var connection: ObjectIdentifier { get }
    /// The request's W3C trace id, set by ``RequestTracingMiddleware``: the caller's when a `traceparent` came.
    var traceID: String? { get set }
    /// When the request arrived: its deadline is counted from here, by every step that waits for it.
    var receivedAt: ContinuousClock.Instant { get }
    /// The request's `Idempotency-Key`, held by ``IdempotencyMiddleware``: where a streamed answer is kept.
    var heldKey: HeldKey? { get set }
}
