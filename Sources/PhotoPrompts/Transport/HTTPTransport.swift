/// Sends one HTTP request and returns the whole response.
///
/// The LLM backends talk to the network only through this protocol, so tests can swap in a twin and the
/// production path (``CurlTransport``) stays in one place.
public protocol HTTPTransport: Sendable {
    /// Sends `request`, giving up once `request.timeout` has passed.
    ///
    /// - Throws: ``HTTPTransportError`` when no complete response arrived; `CancellationError` when the task was cancelled.
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}

/// One outgoing HTTP request.
public struct HTTPTransportRequest: Sendable {
    /// The HTTP method, e.g. `POST`.
    public var method: String
    /// The absolute `http` or `https` URL.
    public var url: String
    /// Header fields in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The request body, if any.
    public var body: [UInt8]?
    /// The total time the transfer may take, from connecting to the last byte of the response.
    public var timeout: Duration

    /// Creates a request.
    public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil, timeout: Duration) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A complete HTTP response.
public struct HTTPTransportResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Header fields of the final response, names lower-cased.
    public var headers: [String: String]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
