import HTTPTypes
import Hummingbird
import PromptDomain

extension StoredResponse {
    /// The HTTP response; `replayed` adds `Idempotent-Replayed: true`, so a client can tell a replay from a first answer.
    func response(replayed: Bool) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let serverTiming, let name = HTTPField.Name("Server-Timing") { headers[name] = serverTiming }
        if replayed, let name = HTTPField.Name("Idempotent-Replayed") { headers[name] = "true" }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
