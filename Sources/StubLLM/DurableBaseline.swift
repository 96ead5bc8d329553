import Foundation
import GRDB
import Hummingbird

/// `POST /baseline/durable`: the durable work of a new session without the service around it, as a benchmark's
/// baseline for cache hits. It reads a JSON body, makes one durable SQLite insert of a session-sized row (WAL,
/// `synchronous = NORMAL` and `temp_store = MEMORY`, as the service's store), and writes a JSON answer the size of a
/// prompts answer. A cache hit does this work and the service's own, so it is measured as a share of it.
public struct DurableBaseline: Sendable {
    private let writer: DatabasePool

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        writer = try DatabasePool(path: path, configuration: configuration)
        try writer.write { db in
            try db.execute(
                sql: "CREATE TABLE IF NOT EXISTS session (id TEXT PRIMARY KEY, request TEXT NOT NULL, answer TEXT NOT NULL, createdAt REAL NOT NULL)"
            )
        }
    }

    /// Three prompts in the shape the service answers, so the row and the answer are the size of a real session's.
    private static let prompts = [
        "What drew your eye to the dog in this photo?",
        "How did Praia da Rocha feel different from what you expected?",
        "What sounds and smells do you remember from this moment?",
    ]

    func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard let photo = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else {
            return Response(status: .badRequest)
        }
        let id = "s_" + UUID().uuidString.lowercased()
        let answer: [String: Any] = [
            "session_id": id,
            "prompts": Self.prompts.map { ["id": "p_" + UUID().uuidString.lowercased(), "text": $0, "source": "cache", "word_count": 10] },
            "source": "cache",
            "request": photo["photo"] ?? [:],
        ]
        let answerData = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])
        let requestText = String(decoding: Data(buffer: body), as: UTF8.self)
        let answerText = String(decoding: answerData, as: UTF8.self)
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO session (id, request, answer, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [id, requestText, answerText, Date().timeIntervalSince1970]
            )
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: answerData)))
    }
}
