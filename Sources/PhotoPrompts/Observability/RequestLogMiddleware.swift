import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PromptGeneration

/// One info line per request (id, method, route, status, latency, the handler's fields), also counted in the metrics.
/// The route is the pattern, never the path (its ids are as good as passwords); no prompt text or caption is logged.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        // Hummingbird's request id (`hb.request.id` on the logs) is sent back, so a client report matches the logs.
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

    /// Hummingbird's ":name" as OpenAPI's "{name}"; a route without one (the hot `POST /v1/prompts`) is not split.
    static func route(_ pattern: String) -> String {
        guard pattern.utf8.contains(UInt8(ascii: ":")) else { return pattern }
        return pattern.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }
}
