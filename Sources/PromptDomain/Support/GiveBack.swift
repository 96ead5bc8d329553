/// Runs `giveBack` to its end even when the calling task is cancelled, ignoring its failure: a failed or cancelled
/// request must still return what it holds in the store (a refresh slot or turn, an idempotency claim), or the next
/// request waits for the lease. A cancelled task's child starts cancelled, hence the awaited detached task; a failure
/// is ignored because the lease returns the claim anyway.
package func giveBack(_ giveBack: @escaping @Sendable () async throws -> Void) async {
    await Task.detached { try? await giveBack() }.value
}
