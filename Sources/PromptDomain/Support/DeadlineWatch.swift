import Synchronization

/// Every pending deadline in the process, watched by one loop that looks every `tick` and fires what is due.
///
/// `answer(by:)` and `withDeadline` keep deadlines on every request, and almost none passes: a sleeping task for each
/// cost a task, a woken Dispatch timer and a cancellation: 2.3 context switches a cache hit (docs/BENCHMARKS.md).
/// Here a deadline is a table entry under a lock; the ``WorkLoop`` passes only while the table was non-empty in the
/// last second, so an idle service sets no timer. A deadline fires at most one `tick` late. The app builds one in
/// `buildServices`; two apps in one process share none.
package final class DeadlineWatch: Sendable {
    /// What `watch(until:fire:)` hands back, to take the deadline off the table.
    package struct Ticket: Sendable {
        fileprivate let number: UInt64
    }

    private let table = DeadlineTable()
    /// The loop that looks at the table; the app's service group serves it.
    package let loop: WorkLoop

    /// Looks every `tick` (10 ms is nothing against deadlines of seconds); a pass ends after `idleTime` of empty table.
    package init(tick: Duration = .milliseconds(10), idleTime: Duration = .seconds(1)) {
        let emptyLooksBeforeStopping = max(1, Int(idleTime / tick))
        self.loop = WorkLoop(
            hasWork: { [table] in !table.isEmpty },
            pass: { [table] in await table.watchWhileBusy(tick: tick, emptyLooksBeforeStopping: emptyLooksBeforeStopping) }
        )
    }

    /// Calls `fire` once, soon after `deadline`, unless `forget(_:)` takes the deadline off first.
    package func watch(until deadline: ContinuousClock.Instant, fire: @escaping @Sendable () -> Void) -> Ticket {
        let number = table.add(DeadlineTable.Entry(deadline: deadline, fire: fire))
        loop.wake()
        return Ticket(number: number)
    }

    /// Takes a deadline off the table; its `fire` is not called unless it already was.
    package func forget(_ ticket: Ticket) {
        table.remove(ticket.number)
    }
}

/// The pending deadlines, by number, under a lock.
private final class DeadlineTable: Sendable {
    struct Entry {
        let deadline: ContinuousClock.Instant
        let fire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var lastNumber: UInt64 = 0
    }

    private let state = Mutex(State())

    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }

    func add(_ entry: Entry) -> UInt64 {
        state.withLock { state in
            state.lastNumber += 1
            state.entries[state.lastNumber] = entry
            return state.lastNumber
        }
    }

    func remove(_ number: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: number) }
    }

    /// One pass: looks every `tick` and fires what is due, until the table has stayed empty long enough or the
    /// serving task is cancelled.
    func watchWhileBusy(tick: Duration, emptyLooksBeforeStopping: Int) async {
        var emptyLooks = 0
        while emptyLooks < emptyLooksBeforeStopping, !Task.isCancelled {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let due: [Entry] = state.withLock { state in
                let due = state.entries.filter { $0.value.deadline <= now }
                for number in due.keys { state.entries.removeValue(forKey: number) }
                emptyLooks = state.entries.isEmpty ? emptyLooks + 1 : 0
                return Array(due.values)
            }
            for entry in due { entry.fire() }
        }
    }
}
