/// Sends one HTTP request and returns the whole response. The LLM backends reach the network only through this
/// protocol, so tests can swap in a twin and the production path (``CurlTransport``) stays in one place.
public protocol HTTPTransport: Sendable {
    /// Sends `request`, giving up once `request.timeout` has passed.
    /// - Throws: ``HTTPTransportError`` when no complete response arrived; `CancellationError` when the task was cancelled.
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}
