import Synchronization

/// Every pending deadline in the process, watched by one task that looks every `tick` and fires what is due.
///
/// `answer(by:)` keeps a deadline for every request body and every prompt request, and almost none of them
/// passes. A timer of its own for each (a sleeping task) cost a task, a Dispatch timer whose thread is woken to
/// set it, and a cancellation, twice a request: 2.3 context switches a cache hit under load (docs/BENCHMARKS.md).
/// Here keeping a deadline is an entry in a table, under a lock. The watching task runs only while the table has
/// been non-empty within the last second, so an idle service sets no timer at all. A deadline fires at most one
/// `tick` late.
package final class DeadlineWatch: Sendable {
    /// The process's watch: ten milliseconds is nothing against a request's deadline of seconds.
    package static let shared = DeadlineWatch(tick: .milliseconds(10))

    /// What `watch(until:fire:)` hands back, to take the deadline off the table.
    package struct Ticket: Sendable {
        fileprivate let number: UInt64
    }

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let fire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var lastNumber: UInt64 = 0
        var isWatching = false
    }

    private let state = Mutex(State())
    private let tick: Duration
    /// How many empty looks in a row end the watching task.
    private let emptyLooksBeforeStopping: Int

    /// A watch that looks every `tick`, and whose task ends once the table has been empty for `idleTime`.
    package init(tick: Duration, idleTime: Duration = .seconds(1)) {
        self.tick = tick
        self.emptyLooksBeforeStopping = max(1, Int(idleTime / tick))
    }

    /// Calls `fire` once, soon after `deadline`, unless `forget(_:)` takes the deadline off first.
    package func watch(until deadline: ContinuousClock.Instant, fire: @escaping @Sendable () -> Void) -> Ticket {
        let (number, startsWatching) = state.withLock { state in
            state.lastNumber += 1
            state.entries[state.lastNumber] = Entry(deadline: deadline, fire: fire)
            defer { state.isWatching = true }
            return (state.lastNumber, !state.isWatching)
        }
        if startsWatching { Task { await watchWhileBusy() } }
        return Ticket(number: number)
    }

    /// Takes a deadline off the table; its `fire` is not called unless it already was.
    package func forget(_ ticket: Ticket) {
        _ = state.withLock { $0.entries.removeValue(forKey: ticket.number) }
    }

    private func watchWhileBusy() async {
        var emptyLooks = 0
        while true {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let (due, stops): ([Entry], Bool) = state.withLock { state in
                let due = state.entries.filter { $0.value.deadline <= now }
                for number in due.keys { state.entries.removeValue(forKey: number) }
                emptyLooks = state.entries.isEmpty ? emptyLooks + 1 : 0
                // Decided under the lock: a deadline added after this sees `isWatching` false and starts a new task.
                if emptyLooks >= emptyLooksBeforeStopping { state.isWatching = false }
                return (Array(due.values), !state.isWatching)
            }
            for entry in due { entry.fire() }
            if stops { return }
        }
    }
}
