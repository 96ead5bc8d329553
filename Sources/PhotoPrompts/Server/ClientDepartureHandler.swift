import NIOCore
import NIOHTTPTypes
import PromptDomain

/// Tells a connection's ``ClientDeparture`` when its client has gone: its input closed (the client shut the
/// socket or half-closed it) or the connection went inactive (a reset).
///
/// The server allows remote half-closure, so a client that closes mid-request leaves the channel open until the
/// answer is written; without this, a request whose client has gone would run its model call to the end.
final class ClientDepartureHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let departure = ClientDeparture()
    private let departures: ClientDepartures

    /// A handler for one connection, which it registers in `departures`, its app's table.
    init(departures: ClientDepartures) {
        self.departures = departures
    }

    func handlerAdded(context: ChannelHandlerContext) {
        departures.register(departure, for: context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        departures.remove(context.channel)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { departure.depart() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Its entry goes in handlerRemoved, which a closing channel calls for every handler after this.
        departure.depart()
        context.fireChannelInactive()
    }
}
