import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers a connection beyond ``ConnectionLimit/maximum`` with `503 too_many_connections` and closes it, before
/// the process runs out of file descriptors. It waits for the request's head, so the client reads an answer, not a
/// reset (a client that sends nothing is closed by the idle timeout).
final class ConnectionLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: ConnectionLimit
    private var admitted = false
    private var refused = false

    init(limit: ConnectionLimit) {
        self.limit = limit
    }

    func channelActive(context: ChannelHandlerContext) {
        admitted = limit.admit()
        refused = !admitted
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        limit.release()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refused else { return context.fireChannelRead(data) }
        guard case .head = unwrapInboundIn(data) else { return }
        refused = false
        APIError.tooManyConnections(limit.maximum).writeCannedResponse(to: context, wrap: wrapOutboundOut)
        context.close(promise: nil)
    }
}
