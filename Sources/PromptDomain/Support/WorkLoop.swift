import Synchronization

/// A background loop that runs only while it has work, in the task of whoever serves it.
///
/// The deadline watch and SQLite's write batcher each need a loop that wakes when work arrives. In the service the
/// app's group serves it (``serve()``, through a lifecycle `Service` that starts before the server, stops after it).
/// Where no group serves it (`photo-prompts generate`, PostgreSQL's migrations, a test's backend chain), or once the
/// group has stopped, a pass runs in a task of its own, so work is never left waiting.
package final class WorkLoop: Sendable {
    private enum Call {
        case pass
        case stop
    }

    private struct State {
        /// Whether a pass is running, or has been handed to a server or a task.
        var isPassing = false
        /// Serving tasks waiting for work, by number.
        var parked: [UInt64: CheckedContinuation<Call, Never>] = [:]
        var lastServer: UInt64 = 0
        var serving = 0
    }

    private let state = Mutex(State())
    private let hasWork: @Sendable () -> Bool
    private let pass: @Sendable () async -> Void

    /// - Parameters:
    ///   - hasWork: whether work is waiting. Asked after every pass, so work that arrives as a pass ends is not missed.
    ///   - pass: does the work there is and returns once there is none, or once its task is cancelled.
    package init(hasWork: @escaping @Sendable () -> Bool, pass: @escaping @Sendable () async -> Void) {
        self.hasWork = hasWork
        self.pass = pass
    }

    /// Makes sure a pass runs soon; call it after adding work. Costs one lock when a pass is already running.
    package func wake() {
        let (server, startsTask): (CheckedContinuation<Call, Never>?, Bool) = state.withLock { state in
            guard !state.isPassing else { return (nil, false) }
            state.isPassing = true
            guard let (number, server) = state.parked.first else { return (nil, true) }
            state.parked[number] = nil
            return (server, false)
        }
        if let server {
            server.resume(returning: .pass)
        } else if startsTask {
            // Detached: the pass serves every caller, so it takes no one request's priority or task-locals.
            Task.detached { await self.runPass() }
        }
    }

    /// How many tasks are in ``serve()``: one in the running service.
    package var servingTasks: Int { state.withLock { $0.serving } }

    /// How many serving tasks wait for work, the next pass theirs.
    package var parkedTasks: Int { state.withLock { $0.parked.count } }

    /// Runs the passes in the calling task, each when work arrives, until the task is cancelled. A pass running
    /// then sees the cancellation; the work it leaves is taken up by another server or a task of its own.
    package func serve() async {
        let number = state.withLock { state in
            state.lastServer += 1
            state.serving += 1
            return state.lastServer
        }
        defer { state.withLock { $0.serving -= 1 } }
        while true {
            let call = await withTaskCancellationHandler {
                await withCheckedContinuation { (parked: CheckedContinuation<Call, Never>) in
                    let isParked = state.withLock { state in
                        // Checked under the lock the cancellation handler takes, so one of the two always resumes.
                        guard !Task.isCancelled else { return false }
                        state.parked[number] = parked
                        return true
                    }
                    if !isParked { parked.resume(returning: .stop) }
                }
            } onCancel: {
                state.withLock { $0.parked.removeValue(forKey: number) }?.resume(returning: .stop)
            }
            guard case .pass = call else { return }
            await runPass()
        }
    }

    private func runPass() async {
        await pass()
        state.withLock { $0.isPassing = false }
        // Work added after the pass looked for the last time, but before it was marked ended, found a pass running.
        if hasWork() { wake() }
    }
}
