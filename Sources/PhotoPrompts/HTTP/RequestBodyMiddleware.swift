import Hummingbird
import PromptDomain
import Tracing

/// Reads every request's body once, before any route: a declared `Content-Length` over 64 KiB is 413 unread, a body
/// stalled for `HTTP_READ_TIMEOUT` 408, malformed HTTP (a bad chunk size) 400 `malformed_request`, not our fault.
/// Each says `Connection: close`, so the server never waits for the rest; routes then read the body from memory.
struct RequestBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    let readTimeout: Duration
    let deadlines: DeadlineWatch
    let tracer: any Tracer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let limit = JSONRequestDecoder.maximumBodyBytes
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw APIError.bodyTooLarge
        }
        let body = request.body
        let collected: ByteBuffer
        do {
            // A child task, cancelled at the read timeout: reading a body ends when cancelled.
            collected = try await tracer.withSpan("read body") { span in
                let collected = try await deadlines.withDeadline(.now + readTimeout) { try await body.collect(upTo: limit) }
                span.attributes["http.request.body.size"] = collected.readableBytes
                return collected
            }
        } catch is DeadlinePassed {
            throw APIError.bodyTimedOut(after: readTimeout)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge
        } catch let error as CancellationError {
            throw error
        } catch {
            throw APIError.malformedRequest
        }
        var request = request
        request.body = RequestBody(buffer: collected)
        return try await next(request, context)
    }
}
