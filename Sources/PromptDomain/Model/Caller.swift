/// Who is calling: the client key's name and, when the app sends one, its user. A session belongs to its creator; any
/// other caller (another key or user) gets a missing id's 404, so session ids cannot be probed across clients.
public struct Caller: Sendable, Equatable {
    /// The API key's name; ``openClient`` when the service runs without keys.
    public var client: String
    /// The app's user id: the body's `user_id` when creating a session, the `X-User-ID` header otherwise.
    public var userID: String?

    /// The client name recorded for sessions made while no API keys are configured.
    public static let openClient = "-"

    public init(client: String, userID: String?) {
        self.client = client
        self.userID = userID
    }

    /// Whether this caller may see a session created by `client` for `userID`.
    public func owns(client owner: String, userID ownerUser: String?) -> Bool {
        owner == client && (ownerUser == nil || ownerUser == userID)
    }
}
