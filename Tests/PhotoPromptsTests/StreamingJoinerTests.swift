import Foundation
import Logging
import PromptBackends
import PromptDomain
import PromptGeneration
import PromptStores
import PromptTemplates
import Synchronization
import Testing

@testable import PhotoPrompts

/// Two identical streamed requests share one backend call; the one that joins sees the prompts as the one that
/// started it does: those already found at once, each further one at the same moment.
@Suite("A streamed request that joins an identical one streams with it")
struct StreamingJoinerTests {
    static let lines = Array(corpusQuestions[0...3])

    /// What one streamed request heard, and when.
    final class Listener: Sendable {
        private let heard = Mutex<[(text: String, at: ContinuousClock.Instant)]>([])
        private let asked = Mutex(false)

        var stream: GenerationStream {
            GenerationStream(
                modelAsked: { self.asked.withLock { $0 = true } },
                prompt: { prompt in self.heard.withLock { $0.append((prompt.text, .now)) } }
            )
        }

        var texts: [String] { heard.withLock { $0.map(\.text) } }
        var times: [ContinuousClock.Instant] { heard.withLock { $0.map(\.at) } }
        var modelAsked: Bool { asked.withLock { $0 } }

        /// Waits until `condition` holds. The 20 s only keep a broken run from hanging: at the start of the whole
        /// suite with the page cache dropped (as after a restart), a 2 s limit failed every case, and the same build
        /// passed on the next run.
        func wait(until condition: @Sendable (Listener) -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while !condition(self) {
                guard ContinuousClock.now < deadline else { throw CancellationError() }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    static func input(_ listener: Listener, readsCache: Bool = false) throws -> PromptGenerator.Input {
        PromptGenerator.Input(
            plan: try .testing(
                PromptTemplate(name: "t", systemText: "Write {{candidate_count}}.", userText: "{{photo.caption}}"),
                photo: PhotoMetadata(caption: "a dog on the beach"),
                language: LanguageTag(locale: "en-US")
            ),
            round: 0,
            alreadyShown: [],
            readsCache: readsCache,
            stream: listener.stream
        )
    }

    @Test(
        "A joiner gets the prompts already shown at once, each further one within 0.2 s of the leader, from one backend call",
        arguments: [0, 1, 2]
    )
    func joinerStreams(joinAfter shown: Int) async throws {
        let backend = PacedBackend(lines: Self.lines)
        let generator = try PromptGenerator.testing([backend])
        let leader = Listener()
        let joiner = Listener()
        let leading = Task { await generator.generate(try Self.input(leader), logger: Logger(label: "test")) }
        try await leader.wait { $0.modelAsked }
        for _ in 0..<shown { backend.release() }
        try await leader.wait { $0.texts.count == shown }

        let joining = Task { await generator.generate(try Self.input(joiner), logger: Logger(label: "test")) }
        try await joiner.wait { $0.modelAsked }
        // What the leader was shown before the join, at once.
        try await joiner.wait { $0.texts.count == shown }
        #expect(joiner.texts == leader.texts)

        for count in (shown + 1)...3 {
            backend.release()
            try await leader.wait { $0.texts.count == count }
            try await joiner.wait { $0.texts.count == count }
            let lag = joiner.times[count - 1] - leader.times[count - 1]
            #expect(lag < .milliseconds(200), "prompt \(count) reached the joiner \(lag) after the leader")
        }
        backend.release()
        let (led, joined) = (try await leading.value, try await joining.value)
        #expect(joiner.texts == Array(Self.lines[0...2]))
        #expect(led.candidates.map(\.text) == Self.lines)
        #expect(joined.candidates.map(\.text) == Self.lines)
        #expect(joined.timing.headerValue.contains("singleflight"))
        #expect(backend.calls == 1)
    }

    @Test("A request after the run is done is served from the cache the run wrote: still one backend call")
    func afterDone() async throws {
        let backend = PacedBackend(lines: Self.lines)
        let store = try InMemoryDatabase().open()
        let generator = try PromptGenerator.testing([backend], cache: store)
        for _ in Self.lines { backend.release() }
        let first = await generator.generate(try Self.input(Listener(), readsCache: true), logger: Logger(label: "test"))
        try await store.cache(try #require(first.cacheEntry), at: Date())
        let later = await generator.generate(try Self.input(Listener(), readsCache: true), logger: Logger(label: "test"))
        #expect(later.source == .cache)
        #expect(later.candidates.map(\.text) == Self.lines)
        #expect(backend.calls == 1)
    }
}

/// A backend that streams its lines one at a time, each only once the test releases it.
final class PacedBackend: LLMBackend {
    let identity = BackendIdentity(provider: "scripted", model: "paced")
    private let lines: [String]
    private let permits: AsyncStream<Void>
    private let permit: AsyncStream<Void>.Continuation
    private let called = Mutex(0)

    init(lines: [String]) {
        self.lines = lines
        (permits, permit) = AsyncStream.makeStream(of: Void.self)
    }

    var calls: Int { called.withLock { $0 } }

    /// Lets the next line through.
    func release() { permit.yield() }

    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        called.withLock { $0 += 1 }
        var iterator = permits.makeAsyncIterator()
        for line in lines {
            _ = await iterator.next()
            request.observer?.received(line + "\n", logprobs: nil)
        }
        return LLMReply(text: lines.joined(separator: "\n"), finishReason: .stop)
    }
}
