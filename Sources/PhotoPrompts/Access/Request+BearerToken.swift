import Hummingbird

extension Request {
    /// The token of an `Authorization: Bearer <token>` header (the scheme in any case), or `nil`.
    var bearerToken: String? {
        guard let authorization = headers[.authorization], authorization.lowercased().hasPrefix("bearer ") else { return nil }
        return String(authorization.dropFirst("bearer ".count))
    }
}
