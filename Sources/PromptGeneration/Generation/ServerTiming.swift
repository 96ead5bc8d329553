import Foundation

/// Where a request's time went, for the `Server-Timing` response header.
public struct ServerTiming: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// A token such as `render`, `cache` or `backend-1`.
        public var name: String
        public var duration: Duration
        /// What it was, e.g. `openai/gpt-4o-mini ok`.
        public var detail: String?
    }

    /// The parts, in the order they happened.
    public private(set) var entries: [Entry] = []

    public init() {}

    public mutating func add(_ name: String, _ duration: Duration, detail: String? = nil) {
        entries.append(Entry(name: name, duration: duration, detail: detail))
    }

    public mutating func append(_ other: ServerTiming) { entries += other.entries }

    /// The header value: `render;dur=0.08, backend-1;dur=12.40;desc="openai/m ok"` (milliseconds).
    public var headerValue: String {
        entries.map { entry in
            var value = "\(entry.name);dur=\((entry.duration.milliseconds * 100).rounded() / 100)"
            if let detail = entry.detail {
                value += ";desc=\"\(detail.replacingOccurrences(of: "\"", with: "'"))\""
            }
            return value
        }.joined(separator: ", ")
    }
}

package func measured<Value>(_ work: () async throws -> Value) async rethrows -> (Value, Duration) {
    let start = ContinuousClock.now
    let value = try await work()
    return (value, ContinuousClock.now - start)
}
