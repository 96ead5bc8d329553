/// An answer kept under an `Idempotency-Key`, replayed byte for byte to a retry.
public struct StoredResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    /// The `Server-Timing` header of the first answer, if any.
    public var serverTiming: String?
    /// A hash of what the first request asked for; a retry must match it.
    public var fingerprint: String
    /// The app's user it was for, so their data can be deleted with them.
    public var userID: String?

    public init(status: Int, body: [UInt8], serverTiming: String? = nil, fingerprint: String, userID: String? = nil) {
        self.status = status
        self.body = body
        self.serverTiming = serverTiming
        self.fingerprint = fingerprint
        self.userID = userID
    }
}
