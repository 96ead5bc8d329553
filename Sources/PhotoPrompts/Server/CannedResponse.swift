import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// An ``APIError`` written straight onto a connection, for the faults the server sees before any route does: one
/// connection too many, a request that cannot be parsed. Always `Connection: close`.
struct CannedResponse {
    let head: HTTPResponse
    let body: ByteBuffer

    init(_ error: APIError) {
        let bytes = (try? error.encodedBody()).map { ByteBuffer(bytes: $0) } ?? ByteBuffer()
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8", .connection: "close"]
        fields[.contentLength] = "\(bytes.readableBytes)"
        if let seconds = error.retryAfterSeconds { fields[.retryAfter] = "\(seconds)" }
        head = HTTPResponse(status: error.status, headerFields: fields)
        body = bytes
    }

    /// Writes and flushes the response; the caller closes the connection.
    func write(to context: ChannelHandlerContext, wrap: (HTTPResponsePart) -> NIOAny) {
        context.write(wrap(.head(head)), promise: nil)
        context.write(wrap(.body(body)), promise: nil)
        context.writeAndFlush(wrap(.end(nil)), promise: nil)
    }
}
