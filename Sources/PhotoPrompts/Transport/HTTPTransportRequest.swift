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
