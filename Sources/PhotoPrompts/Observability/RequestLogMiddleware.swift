import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PromptGeneration

/// One log line per request, at info: request id, method, route, status, latency, and what the handler added
/// (source, template version, backend, cache outcome). Also counts the request in the metrics.
///
/// The route is the matched pattern (`/v1/sessions/{session_id}/refresh`), never the path: paths carry session ids,
/// which are as good as passwords, and user ids. No prompt text and no caption is ever logged here.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        // Hummingbird's own request id (`hb.request.id`, on every log line of the request) is also sent back, so a
        // client report can be matched to the logs.
        let requestID = context.id
        do {
            var response = try await next(request, context)
            if let name = HTTPField.Name("X-Request-ID") { response.headers[name] = requestID }
            record(request, context, status: response.status.code, since: started, requestID: requestID)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context, status: status, since: started, requestID: requestID)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant, requestID: String) {
        let duration = ContinuousClock.now - started
        let route = Self.route(context.endpointPath ?? "unmatched")
        metrics.request(route: route, method: request.method.rawValue, status: status, duration: duration)
        // The line is built only when it will be written: under load with LOG_LEVEL=error this is most requests.
        guard context.logger.logLevel <= .info else { return }
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "route": "\(route)",
            "status": "\(status)",
            "latency_ms": "\(String(format: "%.2f", duration.milliseconds))",
        ]
        metadata.merge(context.requestLog.all.mapValues { "\($0)" }) { $1 }
        context.logger.info("request", metadata: metadata)
    }

    /// Hummingbird's pattern uses ":name"; OpenAPI and the README write "{name}". A route without a parameter, like
    /// the hot `POST /v1/prompts`, is returned as it is, without splitting it.
    static func route(_ pattern: String) -> String {
        guard pattern.utf8.contains(UInt8(ascii: ":")) else { return pattern }
        return pattern.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }
}
