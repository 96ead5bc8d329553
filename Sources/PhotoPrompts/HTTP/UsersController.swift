import Foundation
import Hummingbird
import PromptDomain
import PromptStores

/// The app's "Export Data" and "Delete Account": all one user has under the calling key, trusted to act for its
/// users. Cache entries are keyed by photo metadata, hold no user id, and are not touched; stats hold counts only.
public struct UsersController: Sendable {
    public typealias Context = AppRequestContext
    let store: any UserDataStore
    let refreshLimit: Int

    public init(store: any UserDataStore, refreshLimit: Int) {
        self.store = store
        self.refreshLimit = refreshLimit
    }

    public var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("users/:user_id/export", use: export)
            .delete("users/:user_id", use: delete)
    }

    @Sendable func export(request: Request, context: Context) async throws -> UserExportResponse {
        let userID = try Self.userID(context)
        let client = context.client ?? Caller.openClient
        let data = try await store.exportUser(client: client, userID: userID)
        return UserExportResponse(userID: userID, client: client, data: data, refreshLimit: refreshLimit)
    }

    @Sendable func delete(request: Request, context: Context) async throws -> UserDeletionResponse {
        let userID = try Self.userID(context)
        let deleted = try await store.deleteUser(client: context.client ?? Caller.openClient, userID: userID)
        return UserDeletionResponse(userID: userID, deleted: deleted)
    }

    static func userID(_ context: Context) throws -> String {
        // Path parameters arrive percent-encoded; user ids are compared as the app sent them in JSON.
        let raw = try context.parameters.require("user_id")
        let userID = raw.removingPercentEncoding ?? raw
        guard (1...128).contains(userID.unicodeScalars.count) else { throw APIError.invalidField("user_id", "must be 1 to 128 characters") }
        return userID
    }
}

/// The answer to `GET /v1/users/{user_id}/export`.
public struct UserExportResponse: ResponseEncodable, Sendable {
    struct Feedback: Encodable {
        var sessionID: String
        var promptID: String
        var action: FeedbackAction
        var recordedAt: String
    }

    /// One entry of the prompt history: what the service keeps to avoid showing a prompt again, not its text.
    struct HistoryEntry: Encodable {
        var key: String
        var signature: String
        var shownAt: String
    }

    var userID: String
    var client: String
    var exportedAt: String
    var sessions: [SessionResponse]
    var feedback: [Feedback]
    var promptHistory: [HistoryEntry]

    init(userID: String, client: String, data: UserExport, refreshLimit: Int) {
        self.userID = userID
        self.client = client
        exportedAt = Date().formatted(.iso8601)
        sessions = data.sessions.map { SessionResponse($0, refreshLimit: refreshLimit) }
        feedback = data.feedback.map {
            Feedback(sessionID: $0.sessionID, promptID: $0.promptID, action: $0.action, recordedAt: $0.at.formatted(.iso8601))
        }
        promptHistory = data.history.map {
            HistoryEntry(key: $0.keyHex, signature: $0.signature.stored, shownAt: $0.shownAt.formatted(.iso8601))
        }
    }
}

/// The answer to `DELETE /v1/users/{user_id}`: what was removed.
public struct UserDeletionResponse: ResponseEncodable, Sendable {
    struct Counts: Encodable {
        var sessions: Int
        var feedback: Int
        var idempotencyRecords: Int
        var promptHistory: Int
    }

    var userID: String
    var deleted: Counts

    init(userID: String, deleted: DeletedUserData) {
        self.userID = userID
        self.deleted = Counts(
            sessions: deleted.sessions,
            feedback: deleted.feedback,
            idempotencyRecords: deleted.idempotencyRecords,
            promptHistory: deleted.historyEntries
        )
    }
}
