public struct HTTPTransportRequest: Sendable {
    public var method: String
    /// The absolute `http` or `https` URL.
    public var url: String
    /// Header fields in the order they are sent.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    /// The total time the transfer may take, from connecting to the last byte of the response.
    public var timeout: Duration
    /// Called with each piece of the response body as it arrives, on the transport's own thread, before the whole
    /// response is returned: how a streamed reply is read while the model still writes it. It must be quick.
    public var onBodyChunk: (@Sendable (UnsafeRawBufferPointer) -> Void)?

    public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil, timeout: Duration) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
