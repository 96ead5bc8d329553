import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PhotoPrompts
import PromptBackends
import PromptDomain

/// An HTTP client for the service under test. Over a real socket it is libcurl, so many requests can run at once;
/// over the router (`app.test(.router)`) it is the same calls with no socket, for the fast layer.
package struct ServiceClient: Sendable {
    /// One transport for the whole test process: its multi handle reuses connections.
    package static let transport = CurlTransport()

    /// One request as the client sends it.
    package struct Outgoing: Sendable {
        package var method: String
        package var path: String
        package var headers: [(name: String, value: String)]
        package var body: [UInt8]?
    }

    /// Where a request goes: a live port, or the router in process.
    private let exchange: @Sendable (Outgoing) async throws -> Reply
    /// The live port, when there is one.
    package let port: Int?

    /// The live port, for a test that opens its own connection; a router client has none.
    package var livePort: Int {
        get throws {
            guard let port else { throw FixtureError("a router client has no port") }
            return port
        }
    }
    /// Sent as `X-User-ID` unless a request sets it or its body has a `user_id`: the app always knows its user. The sample request's user by
    /// default, so sessions it creates can be read and refreshed.
    package var userID: String? = sampleUserID

    /// A client for the service listening on `port`.
    package init(port: Int) {
        self.port = port
        self.exchange = { outgoing in
            let request = HTTPTransportRequest(
                method: outgoing.method,
                url: "http://127.0.0.1:\(port)\(outgoing.path)",
                headers: outgoing.headers,
                body: outgoing.body,
                timeout: .seconds(30)
            )
            let response = try await Self.transport.send(request)
            return Reply(status: response.status, headers: response.headers, body: response.body)
        }
    }

    /// A client for the router under `app.test(.router)`: no socket, no connection handlers.
    package init(router: any TestClientProtocol) {
        self.port = nil
        self.exchange = { outgoing in
            var fields = HTTPFields()
            for (name, value) in outgoing.headers {
                if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
            }
            let response = try await router.execute(
                uri: outgoing.path,
                method: HTTPRequest.Method(rawValue: outgoing.method) ?? .get,
                headers: fields,
                body: outgoing.body.map { ByteBuffer(bytes: $0) }
            )
            let headers = Dictionary(response.headers.map { ($0.name.canonicalName, $0.value) }) { first, _ in first }
            return Reply(status: response.status.code, headers: headers, body: Array(buffer: response.body))
        }
    }

    /// A raw response with helpers to read JSON.
    package struct Reply: Sendable {
        package let status: Int
        package let headers: [String: String]
        package let body: [UInt8]

        package init(status: Int, headers: [String: String], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The body as a JSON object.
        package var json: [String: any Sendable] {
            get throws {
                guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: any Sendable] else {
                    throw FixtureError("body is not a JSON object: \(String(decoding: body, as: UTF8.self))")
                }
                return object
            }
        }

        /// `error.code` of an error body.
        package var errorCode: String? { (try? json)?["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } }

        /// `error.details` of an error body.
        package var errorDetails: [String] { (try? json)?["error"].flatMap { ($0 as? [String: Any])?["details"] as? [String] } ?? [] }

        /// The body decoded as `Value`.
        package func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try SnakeCaseJSON.decoder.decode(Value.self, from: Data(body))
        }
    }

    /// Sends a request with a raw body.
    package func send(_ method: String, _ path: String, body: String? = nil, headers: [(name: String, value: String)] = []) async throws -> Reply {
        var headers = headers
        // Like the app, a request names its user once: in the header, unless the body has its own `user_id`.
        let bodyNamesUser = body?.contains(#""user_id""#) ?? false
        if let userID, !bodyNamesUser, !headers.contains(where: { $0.name.lowercased() == "x-user-id" }) {
            headers.append(("X-User-ID", userID))
        }
        return try await exchange(Outgoing(method: method, path: path, headers: headers, body: body.map { Array($0.utf8) }))
    }

    /// POSTs a JSON body.
    package func post(_ path: String, json: String, headers: [(name: String, value: String)] = []) async throws -> Reply {
        try await send("POST", path, body: json, headers: [("Content-Type", "application/json")] + headers)
    }

    /// Starts a session and decodes the answer, failing on any status but 200.
    package func startSession(_ json: String = samplePhotoRequest, headers: [(name: String, value: String)] = []) async throws -> PromptsResponse {
        let reply = try await post("/v1/prompts", json: json, headers: headers)
        guard reply.status == 200 else {
            throw FixtureError("POST /v1/prompts answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        return try reply.decode(PromptsResponse.self)
    }

    /// This client as another user of the app: their requests, and the example request, name `userID`.
    package func asUser(_ userID: String) -> ServiceClient {
        var client = self
        client.userID = userID
        return client
    }

    /// Starts a session on the example request as this client's user.
    package func startSampleSession() async throws -> PromptsResponse {
        try await startSession(samplePhotoRequest(userID: userID ?? sampleUserID))
    }

    /// Refreshes a session.
    package func refresh(_ sessionID: String) async throws -> Reply {
        try await send("POST", "/v1/sessions/\(sessionID)/refresh")
    }

    /// Reads a session back.
    package func session(_ sessionID: String) async throws -> Reply {
        try await send("GET", "/v1/sessions/\(sessionID)")
    }
}

/// The user of ``samplePhotoRequest``.
package let sampleUserID = "u_123"

/// The example request from the API contract, for another user than ``sampleUserID``: each user meets a prompt once
/// (their history), so a test of what users share (the cache, its replays) asks as several users.
package func samplePhotoRequest(userID: String) -> String {
    samplePhotoRequest.replacingOccurrences(of: #""user_id": "\#(sampleUserID)""#, with: #""user_id": "\#(userID)""#)
}

/// The example request from the API contract.
package let samplePhotoRequest = """
    {"user_id": "u_123", "locale": "en-US",
     "photo": {"taken_at": "2026-11-21T17:42:00Z",
               "location": {"name": "Praia da Rocha", "locality": "Portimão", "country": "Portugal", "latitude": 37.117, "longitude": -8.537},
               "labels": ["beach", "sunset", "dog"], "people_count": 2,
               "caption": "A dog running on the beach at sunset", "source": "camera"}}
    """
