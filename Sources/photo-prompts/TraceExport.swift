import Logging
import OTel
import ServiceLifecycle
import Tracing

/// OTLP export of the request's spans, switched on by the standard variables: `OTEL_EXPORTER_OTLP_ENDPOINT` (or
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) turns it on, and swift-otel reads the rest itself (`_PROTOCOL`, `http/protobuf`
/// or `grpc`; `OTEL_SERVICE_NAME`; the batch processor's `OTEL_BSP_*`; the sampler). Without an endpoint, or with
/// `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`, nothing is exported and the app relays the caller's
/// `traceparent` instead. Only traces: the logs stay on standard output and the metrics on `/metrics`.
enum TraceExport {
    /// The tracer and its exporting service, or `nil` when the environment does not ask for export.
    static func fromEnvironment(_ environment: [String: String]) throws -> (tracer: any Tracer, exporter: any Service)? {
        let endpoint = environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? environment["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? ""
        guard !endpoint.isEmpty, environment["OTEL_SDK_DISABLED"]?.lowercased() != "true",
            environment["OTEL_TRACES_EXPORTER"]?.lowercased() != "none"
        else { return nil }
        var configuration = OTel.Configuration.default
        // The variable, when set, wins over this name.
        configuration.serviceName = "photo-prompts"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        // swift-otel's lines (one per variable read, no values) only when something is wrong; `OTEL_LOG_LEVEL` wins.
        configuration.diagnosticLogLevel = .warning
        configuration.diagnosticLogger = .custom(Logger(label: "swift-otel") { label in OTelDiagnostics(wrapped: Logger(label: label).handler) })
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return (backend.factory, backend.service)
    }
}
