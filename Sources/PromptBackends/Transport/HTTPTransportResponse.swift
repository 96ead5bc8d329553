/// A complete HTTP response.
public struct HTTPTransportResponse: Sendable {
    public var status: Int
    /// Header fields of the final response, names lower-cased.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
