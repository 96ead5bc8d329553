import Foundation
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

    /// The control API's keys are snake_case (`latency_ms`), as in the model APIs the stub plays (`owned_by`).
    public var requestDecoder: JSONDecoder { Self.decoder }
    public var responseEncoder: JSONEncoder { Self.encoder }

    private static let decoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    private static let encoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()
}
