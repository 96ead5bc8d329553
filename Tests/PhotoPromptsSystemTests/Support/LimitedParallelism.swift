import PhotoPromptsTestSupport
import Testing

/// Runs at most `width` of the system layer's test cases at once, under plain `swift test`.
///
/// Each system test starts live services, stub models or child processes, and many check an answer arrives within
/// the deadline + 0.5 s. All ~180 at once on two cores starve the one being timed; one at a time leaves the cores
/// idle while tests wait on deadlines, leases and child processes. Five at a time keeps both cores busy. (Swift
/// Testing's own width setting is process-wide and experimental; this trait limits only the system layer.)
///
/// Test cases tagged ``Testing/Tag/slow`` take a free slot before the others: started last, a test that waits out a
/// lease for seconds would finish alone while the other slots stand idle.
///
/// It is a `TestTrait` too, though only suites carry it: a recursive suite trait that is not one crashed Swift Testing
/// 6.3 while it planned the run (an illegal instruction in `Runner.Plan._recursivelyApplyTraits`).
struct LimitedParallelism: TestTrait, SuiteTrait, TestScoping {
    let slots: TestSlots

    var isRecursive: Bool { true }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        await slots.acquire(first: test.tags.contains(.slow))
        do {
            try await function()
        } catch {
            await slots.release()
            throw error
        }
        await slots.release()
    }
}

extension Trait where Self == LimitedParallelism {
    /// At most `width` test cases of the suite run at once.
    static func limitedParallelism(width: Int) -> Self { LimitedParallelism(slots: TestSlots(width: width)) }
}

extension Tag {
    /// A system test that takes seconds (leases, kill -9 and restarts, load through nginx): it is started first.
    @Tag static var slow: Self
}

/// A counting semaphore whose waiters suspend instead of blocking a thread.
actor TestSlots {
    private var free: Int
    /// Waiters in arrival order, those that asked to go first ahead of the rest.
    private var firstWaiters: [CheckedContinuation<Void, Never>] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { free = width }

    func acquire(first: Bool) async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { continuation in
            if first { firstWaiters.append(continuation) } else { waiters.append(continuation) }
        }
    }

    /// Hands the slot straight to the next waiter, or frees it.
    func release() {
        if !firstWaiters.isEmpty {
            firstWaiters.removeFirst().resume()
        } else if !waiters.isEmpty {
            waiters.removeFirst().resume()
        } else {
            free += 1
        }
    }
}
