import NIOCore
import PromptDomain
import Synchronization

/// Each open connection of one app's server and its ``ClientDeparture``, by the channel's identity: a context has its
/// channel, whose handlers are reachable only on its event loop, so a lock per request beats a hop. An entry lives as
/// long as its connection, so an identity is never reused while its entry is here.
final class ClientDepartures: Sendable {
    private let departures = Mutex<[ObjectIdentifier: ClientDeparture]>([:])

    func register(_ departure: ClientDeparture, for channel: any Channel) {
        departures.withLock { $0[ObjectIdentifier(channel)] = departure }
    }

    func remove(_ channel: any Channel) {
        _ = departures.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The departure of the client on `connection`; `nil` for a channel this app's server did not open (a test's).
    func departure(of connection: ObjectIdentifier) -> ClientDeparture? {
        departures.withLock { $0[connection] }
    }
}
