import HTTPTypes
import Hummingbird
import PromptBackends
import Tracing
import W3CTraceContext

/// Every request is a span, the child of the caller's `traceparent` when one came, current while the route runs and
/// its body is written, so the layers' spans are its children. Its trace id goes on every log line and error body,
/// so support can go from the app to the trace. Named by route pattern, never path: paths carry session ids.
struct RequestTracingMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let tracer: any Tracer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = ServiceContext.topLevel
        tracer.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
        let span = tracer.startSpan(request.method.rawValue, context: parent, ofKind: .server)
        var context = context
        if let trace = Self.trace(of: span, by: tracer) {
            context.traceID = "\(trace.traceID)"
            context.logger[metadataKey: "trace_id"] = "\(trace.traceID)"
            // The relay's span id is the caller's own span, not one of ours.
            if span.isRecording { context.logger[metadataKey: "span_id"] = "\(trace.spanID)" }
        }
        do {
            var response = try await ServiceContext.$current.withValue(span.context) { try await next(request, context) }
            describe(span, request, context, status: response.status.code)
            guard span.isRecording else { return response }
            // Ended once the body is written, streamed or not; its events are the span's children.
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { span.end() }
                try await ServiceContext.$current.withValue(span.context) { try await body.write(writer) }
            }
            return response
        } catch {
            describe(span, request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500)
            span.end()
            throw error
        }
    }

    private func describe(_ span: any Span, _ request: Request, _ context: Context, status: Int) {
        guard span.isRecording else { return }
        let route = context.endpointPath.map(RequestLogMiddleware.route) ?? "unmatched"
        span.operationName = "\(request.method.rawValue) \(route)"
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.method.rawValue
            attributes["http.route"] = route
            attributes["http.response.status_code"] = status
        }
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }

    /// The W3C ids of `span`, as the tracer would send them on: the same trace id the provider is told.
    static func trace(of span: any Span, by tracer: any Tracer) -> TraceContext? {
        var headers: [String: String] = [:]
        tracer.inject(span.context, into: &headers, using: TraceHeaders())
        return headers["traceparent"].flatMap { try? TraceContext(traceParentHeaderValue: $0) }
    }
}

/// Reads propagation headers (`traceparent`, `tracestate`) from a request.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { carrier[$0] }
    }
}
