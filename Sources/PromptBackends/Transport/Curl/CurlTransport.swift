/// The production ``HTTPTransport``: libcurl's multi interface behind an `async` call.
///
/// Connections are kept in the multi handle's cache and reused across requests to the same host.
public final class CurlTransport: HTTPTransport {
    private let loop = CurlMultiLoop()

    /// Creates a transport with its own multi handle and thread.
    public init() {}

    deinit {
        loop.shutdown()
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
