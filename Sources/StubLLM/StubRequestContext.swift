import Hummingbird

/// The stub's request context: Hummingbird's basics plus the client's port, so the stub can count connections.
public struct StubRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client side's port: one value per TCP connection.
    public let remotePort: Int?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remotePort = source.channel.remoteAddress?.port
    }
}
