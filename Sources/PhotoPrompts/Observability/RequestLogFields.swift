import Synchronization

/// What a handler learned about a request, for its one log line: source, template version, backend, cache outcome.
/// A reference, so the logging middleware reads what the handler wrote though the context is passed by value.
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
