import NIOCore
import NIOHTTPTypes
import PromptDomain

/// Tells a connection's ``ClientDeparture`` when its client has gone: input closed (shut or half-closed) or a reset.
/// The server allows half-closure, so the channel stays open; without this, the model call would run to the end.
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
