import NIOCore
import PromptDomain
import Synchronization

/// Each open connection of one app's server and its ``ClientDeparture``, found by the connection's identity when a
/// prompt route needs it.
///
/// Hummingbird hands a request's context its channel, not the channel's handlers, and a handler can be looked up
/// only on the channel's event loop; a table keyed by the channel's identity costs one lock per request instead of a
/// hop. An entry lives from the handler's addition to the connection's end, so an identity is never reused while
/// its entry is here. `buildServices` makes one per app, for its server's handlers and its routes.
final class ClientDepartures: Sendable {
    private let departures = Mutex<[ObjectIdentifier: ClientDeparture]>([:])

    func register(_ departure: ClientDeparture, for channel: any Channel) {
        departures.withLock { $0[ObjectIdentifier(channel)] = departure }
    }

    func remove(_ channel: any Channel) {
        _ = departures.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The departure of the client on `connection` (a channel's identity); `nil` for a channel this app's server did
    /// not open (a router test's).
    func departure(of connection: ObjectIdentifier) -> ClientDeparture? {
        departures.withLock { $0[connection] }
    }
}
