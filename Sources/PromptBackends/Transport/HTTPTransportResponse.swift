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
