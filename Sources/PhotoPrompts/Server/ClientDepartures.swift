import NIOCore
import PromptDomain
import Synchronization

/// Each open connection's ``ClientDeparture``, found by its channel when a request's context is made.
///
/// Hummingbird hands a request's context its channel, not the channel's handlers, and a handler can be looked up
/// only on the channel's event loop; a table keyed by the channel's identity costs one lock per request instead of a
/// hop. An entry lives from the handler's addition to the connection's end, so an identity is never reused while
/// its entry is here.
final class ClientDepartures: Sendable {
    static let shared = ClientDepartures()

    private let departures = Mutex<[ObjectIdentifier: ClientDeparture]>([:])

    func register(_ departure: ClientDeparture, for channel: any Channel) {
        departures.withLock { $0[ObjectIdentifier(channel)] = departure }
    }

    func remove(_ channel: any Channel) {
        _ = departures.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The departure of `channel`'s client; `nil` for a channel the server did not open (a router test's).
    func departure(of channel: any Channel) -> ClientDeparture? {
        departures.withLock { $0[ObjectIdentifier(channel)] }
    }
}
