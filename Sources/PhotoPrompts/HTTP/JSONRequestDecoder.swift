import Foundation
import Hummingbird
import PromptDomain

/// Reads a JSON request body: checks the content type and size, then decodes it, naming the field at fault.
public enum JSONRequestDecoder {
    public static let maximumBodyBytes = 64 * 1024

    /// - Throws: ``APIError``: 415 for a missing or non-JSON content type, 413 for a body over 64 KiB,
    ///   400 `invalid_request` for malformed JSON or a field of the wrong type.
    public static func decode<Value: Decodable>(_ type: Value.Type, from request: Request) async throws -> Value {
        try decode(Value.self, from: try await collect(request))
    }

    /// The body of a JSON request, after the content type and size checks.
    /// - Throws: ``APIError`` 415 or 413.
    public static func collect(_ request: Request) async throws -> ByteBuffer {
        guard let contentType = request.headers[.contentType], isJSON(contentType) else {
            throw APIError(.unsupportedMediaType, code: "unsupported_media_type", message: "Send the body as application/json.")
        }
        // RequestBodyMiddleware has refused a body over the limit; a route without it gets Hummingbird's own 413.
        return try await request.body.collect(upTo: maximumBodyBytes)
    }

    /// Decodes `Value` from a collected body, naming the field at fault; ``JSONKeyCheck`` first refuses what the
    /// decoder would let pass or not name (a key sent twice, a number too large).
    public static func decode<Value: Decodable>(_ type: Value.Type, from body: ByteBuffer) throws -> Value {
        if let problem = JSONKeyCheck.firstProblem(in: body) {
            throw APIError.invalidField(problem.path, problem.message)
        }
        do {
            return try SnakeCaseJSON.decoder.decode(Value.self, from: Data(buffer: body))
        } catch let error as DecodingError {
            throw describe(error)
        }
    }

    static func isJSON(_ contentType: String) -> Bool {
        // What nearly every client sends, checked before any splitting, trimming or lowercasing.
        if contentType == "application/json" { return true }
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    /// Turns a decoding error into a 400 naming the JSON path, e.g. `photo.labels[2]`.
    static func describe(_ error: DecodingError) -> APIError {
        let problem = DecodingProblem(error)
        return .invalidField(problem.field, problem.problem)
    }
}
