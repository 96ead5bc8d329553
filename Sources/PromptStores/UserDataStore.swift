import PromptDomain

/// Everything stored about one user, to export or to delete.
public protocol UserDataStore: Sendable {
    /// Every session (expired or not, until pruned), feedback and prompt history of `userID` under the client key `client`.
    func exportUser(client: String, userID: String) async throws -> UserExport

    /// Deletes every session (with its rounds, prompts and feedback), idempotent answer and history entry of `userID` under `client`.
    func deleteUser(client: String, userID: String) async throws -> DeletedUserData
}
