import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Turns a request that cannot be parsed into an answer in the JSON error shape, and closes a connection once an
/// answer that says `Connection: close` is written.
///
/// Between requests, a parse error (a URL or headers too long, bytes that are not HTTP) would otherwise be answered
/// by Hummingbird with an empty 400: here it is `431 headers_too_large` or `400 malformed_request`. Inside a
/// request the error goes on to the route reading the body, which answers it (``RequestBodyMiddleware``). An answer
/// given before its body was read (413, 408, 400) says `Connection: close`; closing then keeps the server from
/// reading the rest of a body that may never come or never end.
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
