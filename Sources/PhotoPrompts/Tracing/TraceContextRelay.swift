import Tracing
import W3CTraceContext

/// The tracer while no trace is exported: it records no span, and sends the caller's W3C trace (or a new, unsampled
/// one) on to the provider unchanged, so the provider's logs and ours still meet the app's trace.
public struct TraceContextRelay: Tracer {
    public init() {}

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> NoOpTracer.NoOpSpan {
        NoOpTracer.NoOpSpan(context: context())
    }

    public func forceFlush() {}

    public func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        context.relayedTrace =
            extractor.extract(key: "traceparent", from: carrier).flatMap { parent in
                try? TraceContext(traceParentHeaderValue: parent, traceStateHeaderValue: extractor.extract(key: "tracestate", from: carrier))
            } ?? TraceContext(traceID: .random(), spanID: .random(), flags: [], state: TraceState())
    }

    public func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let trace = context.relayedTrace else { return }
        injector.inject(trace.traceParentHeaderValue, forKey: "traceparent", into: &carrier)
        if let state = trace.traceStateHeaderValue { injector.inject(state, forKey: "tracestate", into: &carrier) }
    }
}

extension ServiceContext {
    /// The W3C trace the relay carries for a request.
    fileprivate var relayedTrace: TraceContext? {
        get { self[RelayedTraceKey.self] }
        set { self[RelayedTraceKey.self] = newValue }
    }
}

private enum RelayedTraceKey: ServiceContextKey {
    typealias Value = TraceContext
}
