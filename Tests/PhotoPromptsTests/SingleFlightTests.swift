import PromptBackends
import Synchronization
import Testing

@testable import PhotoPrompts

/// One call for identical requests in flight, and no call for nobody: the work is cancelled when its last caller
/// is (a client that left, a deadline that passed), never while one still waits.
@Suite("Single flight", .timeLimit(.minutes(1)))
struct SingleFlightTests {
    /// Work that runs until `release` opens it or its task is cancelled, and says which.
    final class HeldWork: Sendable {
        private let gate = AsyncStream<Void>.makeStream()
        private let runs = Mutex(0)
        private let cancelled = Mutex(false)

        var started: Int { runs.withLock { $0 } }
        /// Set as the cancellation arrives: Task.cancel() runs the handlers on the cancelling thread, at once.
        var wasCancelled: Bool { cancelled.withLock { $0 } }

        func release() { gate.continuation.finish() }

        func run() async -> String {
            runs.withLock { $0 += 1 }
            await withTaskCancellationHandler {
                for await _ in gate.stream {}
            } onCancel: {
                cancelled.withLock { $0 = true }
                release()
            }
            return Task.isCancelled ? "cancelled" : "finished"
        }
    }

    static func until(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    typealias Caller = Task<(value: String, joined: Bool), Never>

    /// A run started by one caller of key "k" and joined by a second, both waiting for it.
    static func twoCallers() async throws -> (SingleFlight<String, Void>, HeldWork, first: Caller, second: Caller) {
        let flight = SingleFlight<String, Void>()
        let work = HeldWork()
        let joined = Mutex(false)
        let first = Task { await flight.run("k", shared: {}, join: { _ in }) { _ in await work.run() } }
        try await until { work.started == 1 }
        let second = Task { await flight.run("k", shared: {}, join: { _ in joined.withLock { $0 = true } }) { _ in await work.run() } }
        try await until { joined.withLock { $0 } }
        return (flight, work, first, second)
    }

    @Test("Callers of one key share one run; cancelling one of two leaves the run going for the other")
    func oneOfTwoLeaves() async throws {
        let (_, work, first, second) = try await Self.twoCallers()
        first.cancel()
        #expect(!work.wasCancelled)
        work.release()
        #expect(await second.value.value == "finished")
        #expect(await second.value.joined)
        #expect(await first.value.value == "finished")
        #expect(work.started == 1)
    }

    @Test("When every caller is cancelled the run is cancelled, and the next caller starts a new one")
    func lastOneLeaves() async throws {
        let (flight, work, first, second) = try await Self.twoCallers()
        first.cancel()
        #expect(!work.wasCancelled)
        second.cancel()
        // Released after a bounded wait either way, so a broken rule fails here instead of hanging the run.
        defer { work.release() }
        try await Self.until { work.wasCancelled }
        #expect(await first.value.value == "cancelled")
        #expect(await second.value.value == "cancelled")
        let fresh = HeldWork()
        let third = Task { await flight.run("k", shared: {}, join: { _ in }) { _ in await fresh.run() } }
        try await Self.until { fresh.started == 1 }
        fresh.release()
        #expect(await third.value == ("finished", false))
    }
}
