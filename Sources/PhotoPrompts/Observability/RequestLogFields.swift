import Synchronization

/// What a handler learned about a request, for its one log line: source, template version, backend, cache outcome.
///
/// A reference in the request context, so the logging middleware can read after the handler what the handler
/// wrote, although the context itself is passed by value.
public final class RequestLogFields: Sendable {
    private let fields = Mutex<[String: String]>([:])

    public init() {}

    public func set(_ name: String, _ value: String?) {
        fields.withLock { $0[name] = value }
    }

    public var all: [String: String] {
        fields.withLock { $0 }
    }
}
