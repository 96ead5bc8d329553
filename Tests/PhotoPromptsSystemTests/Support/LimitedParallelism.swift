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
/// lease for seconds would finish alone while the other slots stand idle. Test cases tagged ``Testing/Tag/load`` take
/// every slot: beside 50 refreshes through nginx, a stalled write's 503 once came 0.45 s after its deadline on CI's two
/// cores, and the promise it checks leaves the service 0.25 s.
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
        let count = test.tags.contains(.load) ? slots.width : 1
        await slots.acquire(count, first: test.tags.contains(.slow))
        do {
            try await function()
        } catch {
            await slots.release(count)
            throw error
        }
        await slots.release(count)
    }
}

extension Trait where Self == LimitedParallelism {
    /// At most `width` test cases of the suite run at once.
    static func limitedParallelism(width: Int) -> Self { LimitedParallelism(slots: TestSlots(width: width)) }
}

extension Tag {
    /// A system test that takes seconds (leases, kill -9 and restarts, load through nginx): it is started first.
    @Tag static var slow: Self
    /// A system test that makes load (many requests at once, a kill under load): it runs alone, as nothing timed can
    /// share two cores with it.
    @Tag static var load: Self
}

/// A counting semaphore whose waiters suspend instead of blocking a thread, served in order: a waiter for every
/// slot is not passed by waiters for one.
actor TestSlots {
    nonisolated let width: Int
    private var free: Int
    /// Waiters in arrival order, those that asked to go first ahead of the rest.
    private var waiters: [(count: Int, first: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    init(width: Int) {
        self.width = width
        free = width
    }

    func acquire(_ count: Int, first: Bool) async {
        if waiters.isEmpty, free >= count {
            free -= count
            return
        }
        await withCheckedContinuation { continuation in
            let place = first ? waiters.firstIndex { !$0.first } ?? waiters.endIndex : waiters.endIndex
            waiters.insert((count, first, continuation), at: place)
        }
    }

    /// Gives `count` slots back and hands them on to the waiters they now cover, in order.
    func release(_ count: Int) {
        free += count
        while let next = waiters.first, free >= next.count {
            free -= next.count
            waiters.removeFirst().continuation.resume()
        }
    }
}
