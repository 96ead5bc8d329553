import Hummingbird
import Logging
import PhotoPromptsTestSupport
import ServiceLifecycle
import StubLLM

/// A running `stub-llm` server on a real loopback socket, in this test process.
struct StubLLMFixture: Sendable {
    let state: StubLLMState
    let port: Int

    /// The OpenAI-compatible base URL, as `LLM_BASE_URL` takes it.
    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// The base URL for a provider: OpenAI's includes `/v1`; Anthropic and Ollama add their own paths.
    func baseURL(for provider: String) -> String {
        provider == "openai" ? baseURL : "http://127.0.0.1:\(port)"
    }

    /// The environment variables that make backend number `position` this stub, speaking `provider`'s API.
    func backendEnvironment(provider: String, position: Int = 1) -> [String: String] {
        let prefix = position == 1 ? "LLM_" : "LLM_\(position)_"
        return [prefix + "PROVIDER": provider, prefix + "BASE_URL": baseURL(for: provider), prefix + "MODEL": "stub-\(provider)"]
    }

    /// Calls received so far.
    var calls: Int { get async { await state.calls } }

    /// Switches behaviour.
    func set(_ behaviour: StubBehaviour, latencyMilliseconds: Int? = nil, failFirst: Int? = nil, retryAfter: String? = nil) async {
        await state.set(behaviour: behaviour, latencyMilliseconds: latencyMilliseconds, failFirst: failFirst, retryAfter: retryAfter)
    }
}

/// The test environment with a chain of backends in the order given, each a stub speaking one provider's API.
func chainEnvironment(_ backends: (stub: StubLLMFixture, provider: String)...) -> [String: String] {
    backends.enumerated().reduce(testEnvironment(stub: nil)) { environment, backend in
        environment.merging(backend.element.stub.backendEnvironment(provider: backend.element.provider, position: backend.offset + 1)) { $1 }
    }
}

/// Runs `body` with a stub model server listening on a free port, and stops the server afterwards.
func withStubLLM<Value: Sendable>(
    _ behaviour: StubBehaviour = .normal,
    latencyMilliseconds: Int = 0,
    _ body: @Sendable (StubLLMFixture) async throws -> Value
) async throws -> Value {
    let state = StubLLMState(behaviour: behaviour, latencyMilliseconds: latencyMilliseconds)
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "stub-llm")
    logger.logLevel = .critical
    let app = StubLLMServer.buildApplication(port: 0, state: state, logger: logger) { port in portContinuation.yield(port) }
    // Stopped by graceful shutdown, never by cancellation: cancelling a NIO server while a connection it accepted
    // is still queued traps in NIOAsyncWriter ("Deinited NIOAsyncWriter without calling finish()").
    let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw FixtureError("stub-llm did not start") }
        let result = await Result(catching: { try await body(StubLLMFixture(state: state, port: port)) })
        // Hanging answers end first, so the graceful shutdown has no request left to wait for.
        await state.releaseAll()
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
        return try result.get()
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing body.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
