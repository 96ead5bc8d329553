/// Runs `giveBack` to its end even when the calling task is cancelled, ignoring its failure.
///
/// A request that fails or is cancelled must still return what it holds in the store (a refresh slot, a refresh
/// turn, an idempotency claim); otherwise the next request waits for the claim lease. A child of a cancelled task
/// starts cancelled, so the store call runs in a detached task, which is awaited. A failure is ignored because the
/// lease returns the claim anyway.
package func giveBack(_ giveBack: @escaping @Sendable () async throws -> Void) async {
    await Task.detached { try? await giveBack() }.value
}
