import Foundation

/// Runs `work` on a thread of its own and awaits its result: blocking work (opening a dictionary, judging many
/// cards) then holds no thread of Swift's cooperative pool, which the deadline watch and the routes under test need.
package func offThePool<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
