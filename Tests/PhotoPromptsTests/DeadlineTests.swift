import PromptDomain
import Synchronization
import Testing

@testable import PhotoPrompts

/// Every bound on a time here is half of what the work or the deadline would take, so a loaded machine (the whole fast
/// layer on two cores has taken 9 s to run a 100 ms deadline) cannot fail a test, and the broken behaviour still can.
@Suite("Deadlines: one watch for the process, answers by the deadline whatever the work does")
struct DeadlineTests {
    @Test("Work that never finishes is answered with DeadlinePassed at its deadline, and is cancelled")
    func hangingWorkIsCutOff() async throws {
        let cancelled = Mutex(false)
        let started = ContinuousClock.now
        await #expect(throws: DeadlinePassed.self) {
            try await DeadlineWatch().answer(by: started + .milliseconds(100)) {
                // Ignores cancellation while it sleeps, as a write behind SQLite's writer would.
                await withTaskCancellationHandler {
                    try? await Task.sleep(for: .seconds(60))
                } onCancel: {
                    cancelled.withLock { $0 = true }
                }
            }
        }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(100))
        #expect(waited < .seconds(30), "answered at the deadline, not when the work ended")
        #expect(cancelled.withLock { $0 })
    }

    @Test("Work that finishes in time gives its value, and its deadline never fires")
    func finishedWorkKeepsItsValue() async throws {
        // A deadline no busy machine reaches: what is checked is the value, not a time.
        let value = try await DeadlineWatch().answer(by: .now + .seconds(60)) { 42 }
        #expect(value == 42)
        // A forgotten deadline beside a kept, later one: once the later one has fired, the watch has passed the
        // forgotten one's instant, however late the machine ran it.
        let forgottenFired = Mutex(false)
        let laterFired = Mutex(false)
        let watch = DeadlineWatch(tick: .milliseconds(5))
        let ticket = watch.watch(until: .now + .seconds(1)) { forgottenFired.withLock { $0 = true } }
        watch.forget(ticket)
        _ = watch.watch(until: .now + .milliseconds(1050)) { laterFired.withLock { $0 = true } }
        for _ in 0..<2000 where !laterFired.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        try #require(laterFired.withLock { $0 }, "the kept deadline fired within 20 s")
        #expect(!forgottenFired.withLock { $0 }, "a forgotten deadline does not fire")
    }

    @Test("withDeadline cancels its work at the deadline and returns DeadlinePassed only once the work has ended")
    func structuredDeadlineWaitsForTheWork() async throws {
        let ended = Mutex(false)
        let started = ContinuousClock.now
        await #expect(throws: DeadlinePassed.self) {
            try await DeadlineWatch().withDeadline(started + .milliseconds(100)) {
                // Ends when cancelled, as a libcurl transfer or a body read does.
                defer { ended.withLock { $0 = true } }
                try await Task.sleep(for: .seconds(60))
            }
        }
        let waited = ContinuousClock.now - started
        #expect(ended.withLock { $0 }, "the work had ended when withDeadline returned: it is a child task")
        #expect(waited >= .milliseconds(100))
        #expect(waited < .seconds(30), "cancelled at the deadline, not left to sleep")
        let quick = ContinuousClock.now
        #expect(try await DeadlineWatch().withDeadline(.now + .seconds(60)) { 42 } == 42, "work that ends in time gives its value")
        #expect(ContinuousClock.now - quick < .seconds(30), "at once, not at the deadline")
    }

    @Test("Cancelling withDeadline's caller cancels its work at once, long before the deadline")
    func cancellingTheCallerCancelsTheWork() async throws {
        let caller = Task {
            try await DeadlineWatch().withDeadline(.now + .seconds(60)) { try await Task.sleep(for: .seconds(60)) }
        }
        let started = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(50))
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(ContinuousClock.now - started < .seconds(30), "well before the deadline, however busy the machine")
    }

    @Test("Many deadlines at once each fire once, none early, the watch stopping and starting between bursts")
    func manyDeadlinesFireOnce() async throws {
        let watch = DeadlineWatch(tick: .milliseconds(5), idleTime: .milliseconds(50))
        for burst in 0..<3 {
            let log = FiringLog()
            let start = ContinuousClock.now
            await withTaskGroup(of: Void.self) { group in
                for number in 0..<500 {
                    group.addTask {
                        let deadline = start + .milliseconds(10 + number % 50)
                        _ = watch.watch(until: deadline) { log.fired(number, early: ContinuousClock.now < deadline) }
                    }
                }
            }
            // Waited for, not timed: a run busy with other suites can keep the watch's task from a thread for a while.
            for _ in 0..<250 where log.state.withLock({ $0.counts.count }) < 500 {
                try await Task.sleep(for: .milliseconds(20))
            }
            let (counts, early) = log.state.withLock { ($0.counts, $0.early) }
            #expect(counts.count == 500, "burst \(burst): every deadline fired")
            #expect(counts.values.allSatisfy { $0 == 1 }, "burst \(burst): each exactly once")
            #expect(early == 0)
            // Empty for longer than its idle time: the watching task ends, and the next burst starts a new one.
            try await Task.sleep(for: .milliseconds(150))
        }
    }
}

/// Which deadlines fired, how often, and how many before their time.
private final class FiringLog: Sendable {
    let state = Mutex((counts: [Int: Int](), early: 0))

    func fired(_ number: Int, early: Bool) {
        state.withLock { state in
            state.counts[number, default: 0] += 1
            if early { state.early += 1 }
        }
    }
}
