import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import Synchronization
import Testing

/// The loops behind the deadline watch and SQLite's write batcher: a pass whenever work waits, in the serving task
/// while one serves, in a task of its own otherwise, and no work ever left behind.
@Suite("A work loop passes whenever work waits: in the serving task while served, in its own task otherwise")
struct WorkLoopTests {
    /// Names the task a pass ran in: set around `serve()`, and not inherited by a detached task.
    @TaskLocal static var servedBy: String?

    /// Items waiting, and for each item taken, the task that took it.
    final class Queue: Sendable {
        let state = Mutex((waiting: [Int](), taken: [Int: [String?]]()))

        func add(_ item: Int) { state.withLock { $0.waiting.append(item) } }
        var hasWork: Bool { state.withLock { !$0.waiting.isEmpty } }

        /// Takes what waits, a little at a time, yielding between takes so that adds land mid-pass.
        func pass() async {
            while true {
                let taker = WorkLoopTests.servedBy
                let took = state.withLock { state in
                    let batch = state.waiting.prefix(7)
                    state.waiting.removeFirst(batch.count)
                    for item in batch { state.taken[item, default: []].append(taker) }
                    return !batch.isEmpty
                }
                guard took else { return }
                await Task.yield()
            }
        }

        /// Waits until `count` items have been taken, or 10 s (a guard against a lost wake, not a clock).
        func taken(count: Int) async throws -> [Int: [String?]] {
            for _ in 0..<1000 where state.withLock({ $0.taken.count }) < count {
                try await Task.sleep(for: .milliseconds(10))
            }
            return state.withLock { $0.taken }
        }
    }

    static func loop(over queue: Queue) -> WorkLoop {
        WorkLoop(hasWork: { queue.hasWork }, pass: { await queue.pass() })
    }

    /// Adds `count` items numbered from `first`, from as many tasks at once, each waking the loop.
    static func addAtOnce(_ count: Int, from first: Int, to queue: Queue, waking loop: WorkLoop) async {
        await withTaskGroup(of: Void.self) { group in
            for item in first..<(first + count) {
                group.addTask {
                    queue.add(item)
                    loop.wake()
                }
            }
        }
    }

    @Test("With no one serving it, 2,000 items added from 2,000 tasks at once are each taken once, in tasks of its own")
    func unservedTakesEverything() async throws {
        let queue = Queue()
        let loop = Self.loop(over: queue)
        for burst in 0..<4 {
            await Self.addAtOnce(500, from: burst * 500, to: queue, waking: loop)
        }
        let taken = try await queue.taken(count: 2000)
        #expect(taken.count == 2000, "no item is left waiting")
        #expect(taken.values.allSatisfy { $0 == [nil] }, "each item is taken once, outside any serving task")
    }

    @Test("While a task serves it, every pass runs there; once that task is cancelled, serve returns and passes run in tasks of their own")
    func servedPassesRunInTheServingTask() async throws {
        let queue = Queue()
        let loop = Self.loop(over: queue)
        let server = Task { await Self.$servedBy.withValue("server") { await loop.serve() } }
        // Parked before the first wake, or the first pass would rightly go to a task of its own.
        try await waitUntil { loop.parkedTasks == 1 }
        for burst in 0..<4 {
            await Self.addAtOnce(500, from: burst * 500, to: queue, waking: loop)
            _ = try await queue.taken(count: (burst + 1) * 500)
        }
        let served = try await queue.taken(count: 2000)
        #expect(served.count == 2000)
        #expect(served.values.allSatisfy { $0 == ["server"] }, "each item taken once, by the serving task")

        server.cancel()
        await server.value
        await Self.addAtOnce(500, from: 2000, to: queue, waking: loop)
        let after = try await queue.taken(count: 2500)
        #expect(after.count == 2500, "work added after the server stopped is still taken")
        #expect((2000..<2500).allSatisfy { after[$0] == [nil] }, "in tasks of the loop's own")
    }

    @Test("The app's service group serves the deadline watch and the store's write batcher, and lets go of them when it stops")
    func theAppServesItsLoops() async throws {
        let store = try InMemoryDatabase().open()
        let deadlines = DeadlineWatch()
        try await withRouterService(store: store, deadlines: deadlines) { client in
            #expect(try await client.startSession().prompts.count == 3)
            // This app's own watch and batcher, each served by one task of its group: no other app's count here.
            try await waitUntil { store.batcher.loop.servingTasks == 1 && deadlines.loop.servingTasks == 1 }
        }
        #expect(store.batcher.loop.servingTasks == 0, "the group stopped serving the batcher")
        #expect(deadlines.loop.servingTasks == 0, "the group stopped serving the deadline watch")
    }

    @Test("Work added after a pass's last look, while the pass is ending, gets a pass of its own")
    func workAddedAsAPassEndsIsTaken() async throws {
        let ending = EndingPass()
        let loop = WorkLoop(hasWork: { ending.hasWork }, pass: { await ending.pass() })
        ending.add()
        loop.wake()
        try await ending.waitUntilEnding()
        // The pass has looked for the last time and is winding down (as the deadline watch fires what was due).
        ending.add()
        loop.wake()
        ending.letEnd()
        try await waitUntil { !ending.hasWork }
    }
}

/// A pass whose first run, after its last look, waits for the test before it returns.
private final class EndingPass: Sendable {
    private let state = Mutex((waiting: 0, isEnding: false, hasEnded: false, release: CheckedContinuation<Void, Never>?.none))

    var hasWork: Bool { state.withLock { $0.waiting > 0 } }
    func add() { state.withLock { $0.waiting += 1 } }

    func pass() async {
        state.withLock { $0.waiting = 0 }
        let firstPass = state.withLock { !$0.hasEnded }
        guard firstPass else { return }
        await withCheckedContinuation { release in
            state.withLock { state in
                state.isEnding = true
                state.release = release
            }
        }
        state.withLock { $0.hasEnded = true }
    }

    func waitUntilEnding() async throws {
        try await waitUntil { self.state.withLock { $0.isEnding } }
    }

    func letEnd() { state.withLock { $0.release }?.resume() }
}
