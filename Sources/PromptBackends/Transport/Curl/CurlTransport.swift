import Dispatch
import ServiceLifecycle

/// The production ``HTTPTransport``: libcurl's multi interface behind an `async` call. Connections are kept in the
/// multi handle's cache and reused across requests to the same host.
///
/// A lifecycle `Service` whose loop thread runs from creation (`photo-prompts generate` needs no service group).
/// Added before the server, it is stopped after the server's last answer: the loop fails what is left, frees its
/// connections and ends its thread, and a later send fails at once.
public final class CurlTransport: HTTPTransport, Service {
    private let loop = CurlMultiLoop()

    public init() {}

    deinit { loop.shutdown() }

    /// Waits for the service group's graceful shutdown (or cancellation), then stops the loop. Stopping waits for the
    /// loop's thread to end, so it is waited for on a thread of Dispatch's, not on one of the cooperative pool's.
    public func run() async throws {
        try? await gracefulShutdown()
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [loop] in
                loop.shutdown()
                stopped.resume()
            }
        }
    }

    /// Sends `request`; cancelling the calling task removes the transfer from libcurl at once.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let transfer = try CurlTransfer(request: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.setContinuation(continuation)
                loop.submit(transfer)
            }
        } onCancel: {
            transfer.markCancelled()
            loop.wakeForCancellation()
        }
    }
}
