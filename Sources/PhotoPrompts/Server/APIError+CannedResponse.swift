import HTTPTypes
import NIOCore
import NIOHTTPTypes

extension APIError {
    /// Writes the error straight onto a connection and flushes it, for the faults the server sees before any route
    /// does: one connection too many, a request that cannot be parsed. Always `Connection: close`; the caller closes.
    func writeCannedResponse(to context: ChannelHandlerContext, wrap: (HTTPResponsePart) -> NIOAny) {
        let body = (try? encodedBody()).map { ByteBuffer(bytes: $0) } ?? ByteBuffer()
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8", .connection: "close"]
        fields[.contentLength] = "\(body.readableBytes)"
        if let retryAfterSeconds { fields[.retryAfter] = "\(retryAfterSeconds)" }
        context.write(wrap(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(wrap(.body(body)), promise: nil)
        context.writeAndFlush(wrap(.end(nil)), promise: nil)
    }
}
