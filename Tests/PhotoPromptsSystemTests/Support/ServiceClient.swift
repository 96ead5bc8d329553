import Foundation
import PhotoPrompts

/// An HTTP client for the service under test, on libcurl, so many requests can run at once.
struct ServiceClient: Sendable {
    /// One transport for the whole test process: its multi handle reuses connections.
    static let transport = CurlTransport()

    let port: Int
    /// Sent as `X-User-ID` unless a request sets it or its body has a `user_id`: the app always knows its user. The sample request's user by
    /// default, so sessions it creates can be read and refreshed.
    var userID: String? = sampleUserID

    /// A raw response with helpers to read JSON.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]

        /// The body as a JSON object.
        var json: [String: any Sendable] {
            get throws {
                guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: any Sendable] else {
                    throw FixtureError("body is not a JSON object: \(String(decoding: body, as: UTF8.self))")
                }
                return object
            }
        }

        /// `error.code` of an error body.
        var errorCode: String? { (try? json)?["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } }

        /// `error.details` of an error body.
        var errorDetails: [String] { (try? json)?["error"].flatMap { ($0 as? [String: Any])?["details"] as? [String] } ?? [] }

        /// The body decoded as `Value`.
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try JSONDecoder().decode(Value.self, from: Data(body))
        }
    }

    /// Sends a request with a raw body.
    func send(_ method: String, _ path: String, body: String? = nil, headers: [(name: String, value: String)] = []) async throws -> Reply {
        var headers = headers
        // Like the app, a request names its user once: in the header, unless the body has its own `user_id`.
        let bodyNamesUser = body?.contains(#""user_id""#) ?? false
        if let userID, !bodyNamesUser, !headers.contains(where: { $0.name.lowercased() == "x-user-id" }) {
            headers.append(("X-User-ID", userID))
        }
        let request = HTTPTransportRequest(
            method: method,
            url: "http://127.0.0.1:\(port)\(path)",
            headers: headers,
            body: body.map { Array($0.utf8) },
            timeout: .seconds(30)
        )
        let response = try await Self.transport.send(request)
        return Reply(status: response.status, headers: response.headers, body: response.body)
    }

    /// POSTs a JSON body.
    func post(_ path: String, json: String, headers: [(name: String, value: String)] = []) async throws -> Reply {
        try await send("POST", path, body: json, headers: [("Content-Type", "application/json")] + headers)
    }

    /// Starts a session and decodes the answer, failing on any status but 200.
    func startSession(_ json: String = samplePhotoRequest, headers: [(name: String, value: String)] = []) async throws -> PromptsResponse {
        let reply = try await post("/v1/prompts", json: json, headers: headers)
        guard reply.status == 200 else {
            throw FixtureError("POST /v1/prompts answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        return try reply.decode(PromptsResponse.self)
    }

    /// Refreshes a session.
    func refresh(_ sessionID: String) async throws -> Reply {
        try await send("POST", "/v1/sessions/\(sessionID)/refresh")
    }

    /// Reads a session back.
    func session(_ sessionID: String) async throws -> Reply {
        try await send("GET", "/v1/sessions/\(sessionID)")
    }
}

/// The user of ``samplePhotoRequest``.
let sampleUserID = "u_123"

/// The example request from the API contract.
let samplePhotoRequest = """
    {"user_id": "u_123", "locale": "en-US",
     "photo": {"taken_at": "2026-11-21T17:42:00Z",
               "location": {"name": "Praia da Rocha", "locality": "Portimão", "country": "Portugal", "latitude": 37.117, "longitude": -8.537},
               "labels": ["beach", "sunset", "dog"], "people_count": 2,
               "caption": "A dog running on the beach at sunset", "source": "camera"}}
    """
