extension Result where Failure == any Error {
    /// The outcome of an async throwing body, kept to act on after some clean-up.
    static func capturing(_ body: () async throws -> Success) async -> Result {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
