import CoreMetrics
import Metrics
import Prometheus
import PromptBackends
import PromptDomain
import Synchronization

/// The service's Prometheus metrics, through swift-metrics, in a registry of its own that `GET /metrics` renders, not
/// the process-wide `MetricsSystem`, so several services in one process (the tests) never share counters.
public final class ServiceMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let gaugeSources = Mutex(GaugeSources.none)
    /// The backends' calls, counted with the same calls as their Prometheus counters, for the console.
    public let backends = BackendTally()
    /// Values read at scrape time rather than tracked on every change.
    public struct GaugeSources: Sendable {
        public var backendInFlight: @Sendable () -> Int
        /// Each backend's breaker: 0 closed, 1 open, 0.5 half-open.
        public var breakers: @Sendable () async -> [(backend: String, state: Double)]

        public init(backendInFlight: @escaping @Sendable () -> Int, breakers: @escaping @Sendable () async -> [(backend: String, state: Double)]) {
            self.backendInFlight = backendInFlight
            self.breakers = breakers
        }

        public static let none = GaugeSources(backendInFlight: { 0 }, breakers: { [] })
    }

    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10), .seconds(15), .seconds(30),
        ]
        self.factory = factory
    }

    /// Where the scrape-time gauges come from, once the parts they read exist.
    public func readGauges(from sources: GaugeSources) { gaugeSources.withLock { $0 = sources } }

    // Made per event: the registry hands back the same metric per name and labels; caching them gained no throughput.
    private func counter(_ label: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
    }

    private func timer(_ label: String, _ dimensions: [(String, String)]) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: label, dimensions: dimensions, factory: factory)
    }

    package func request(route: String, method: String, status: Int, duration: Duration) {
        counter("photoprompts_http_requests_total", [("route", route), ("method", method), ("status", "\(status)")]).increment()
        timer("photoprompts_http_request_duration_seconds", [("route", route), ("method", method)])
            .recordNanoseconds(Int64(duration.milliseconds * 1_000_000))
    }

    /// One backend attempt and how it ended (`ok`, `timeout`, `http_500`, `skipped`, …).
    package func backendAttempt(_ backend: BackendIdentity, outcome: String, duration: Duration) {
        let name = "\(backend.provider)/\(backend.model)"
        counter("photoprompts_backend_calls_total", [("backend", name), ("outcome", outcome)]).increment()
        backends.attempt(name, outcome: outcome, duration: duration)
        timer("photoprompts_backend_call_duration_seconds", [("backend", name)])
            .recordNanoseconds(Int64(duration.milliseconds * 1_000_000))
    }

    package func backendTokens(_ backend: BackendIdentity, _ usage: TokenUsage) {
        let name = "\(backend.provider)/\(backend.model)"
        counter("photoprompts_backend_tokens_total", [("backend", name), ("kind", "prompt")]).increment(by: Int64(usage.prompt))
        counter("photoprompts_backend_tokens_total", [("backend", name), ("kind", "completion")]).increment(by: Int64(usage.completion))
        // Of the prompt's, those the provider's prompt cache held: what the constant prefix saves.
        counter("photoprompts_backend_tokens_total", [("backend", name), ("kind", "cached_prompt")]).increment(by: Int64(usage.cached))
        backends.tokens(name, usage)
    }

    /// A call cancelled because no caller waited for it any more: the completion tokens it would have written, by
    /// the backend's recent mean (its calls are counted with `outcome="cancelled"`).
    package func backendTokensSaved(_ backend: BackendIdentity, _ tokens: Int) {
        let name = "\(backend.provider)/\(backend.model)"
        counter("photoprompts_backend_tokens_saved_total", [("backend", name)]).increment(by: Int64(tokens))
    }

    package func cacheLookup(hit: Bool) {
        counter("photoprompts_cache_lookups_total", [("result", hit ? "hit" : "miss")]).increment()
    }

    package func fallback(_ reason: FallbackReason) {
        counter("photoprompts_fallbacks_total", [("reason", reason.rawValue)]).increment()
    }

    /// Candidates the word rule or the checks rejected, by reason.
    package func rejections(_ rejections: [PromptRejection]) {
        for rejection in rejections {
            counter("photoprompts_rejections_total", [("reason", rejection.reason.code)]).increment()
        }
    }

    /// A refresh refused because the session's refreshes are spent.
    package func refreshLimitHit() { counter("photoprompts_refresh_limit_hits_total").increment() }

    /// A request refused by a rate limit (`user` or `client key`).
    package func rateLimitHit(scope: String) {
        counter("photoprompts_rate_limit_hits_total", [("scope", scope)]).increment()
    }

    /// The Prometheus text exposition, with the scrape-time gauges refreshed first.
    public func render() async -> String {
        let sources = gaugeSources.withLock { $0 }
        Gauge(label: "photoprompts_backend_in_flight", factory: factory).record(sources.backendInFlight())
        for (backend, state) in await sources.breakers() {
            Gauge(label: "photoprompts_breaker_open", dimensions: [("backend", backend)], factory: factory).record(state)
        }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
