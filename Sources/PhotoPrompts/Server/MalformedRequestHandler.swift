import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers an unparsable request as `431 headers_too_large` or `400 malformed_request`, not Hummingbird's empty 400;
/// inside a request, the route reading the body answers it (``RequestBodyMiddleware``). Closes the connection after
/// an answer saying `Connection: close` (given before the body was read), so the server never reads the rest of a
/// body that may never come or never end.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Whether a request's head arrived and its answer has not ended yet.
    private var inRequest = false
    private var closesAfterAnswer = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { inRequest = true }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError, !inRequest else { return context.fireErrorCaught(error) }
        let answer: APIError = parseError == .headerOverflow ? .headersTooLarge : .malformedRequest
        answer.writeCannedResponse(to: context, wrap: wrapOutboundOut)
        context.close(promise: nil)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            closesAfterAnswer = head.headerFields[.connection] == "close"
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            inRequest = false
            guard closesAfterAnswer else { return context.write(data, promise: promise) }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
        }
    }
}
