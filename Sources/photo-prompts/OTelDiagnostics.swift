import Logging

/// swift-otel's own log lines, written like the service's, without the values of the variables it read: at
/// `OTEL_LOG_LEVEL=info` it logs each one, and `OTEL_EXPORTER_OTLP_HEADERS` holds a tracing backend's key. The
/// variable's name stays, so an operator still sees what was read.
struct OTelDiagnostics: LogHandler {
    /// The metadata keys swift-otel writes a variable's value under.
    static let values: Set<String> = ["environment_value", "new_value", "previous_value"]

    var wrapped: any LogHandler

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue.filter { !Self.values.contains($0.key) } }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { if !Self.values.contains(key) { wrapped[metadataKey: key] = newValue } }
    }

    func log(event: LogEvent) {
        var event = event
        event.metadata = event.metadata?.filter { !Self.values.contains($0.key) }
        wrapped.log(event: event)
    }
}
