public struct HTTPTransportResponse: Sendable {
    public var status: Int
    /// Header fields of the final response, names lower-cased.
    public var headers: [String: String]
    public var body: [UInt8]
}
