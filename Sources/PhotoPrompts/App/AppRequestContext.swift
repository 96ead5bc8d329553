import Foundation
import Hummingbird
import PromptDomain

/// The request context every route uses: Hummingbird's basic context with stable JSON output and the caller's
/// client key name.
public struct AppRequestContext: ServiceRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var client: String?
    public let requestLog = RequestLogFields()
    public let connection: ObjectIdentifier
    public var traceID: String?
    public let receivedAt = ContinuousClock.now
    public var heldKey: HeldKey?

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.connection = ObjectIdentifier(source.channel)
    }

    /// Sorted snake_case keys: responses are byte-for-byte reproducible, which keeps logs, docs and diffs readable.
    public var responseEncoder: JSONEncoder { SnakeCaseJSON.encoder }
}
