import Hummingbird
import Logging

/// The stub model as an HTTP server speaking three model APIs, plus a control endpoint.
///
/// Routes: `POST /v1/chat/completions` (and `/chat/completions`, OpenAI), `POST /v1/messages` (Anthropic),
/// `POST /api/chat` (Ollama); `GET /control` for the behaviour and counters; `POST /control` with
/// `{"behaviour": "hang", "latency_ms": 0, "fail_first": 2, "retry_after": "30"}` to switch; `POST /control/reset`; `GET /hello`,
/// a bare Hummingbird route that benchmarks report for scale; and, with a ``DurableBaseline``, `POST /baseline/durable`,
/// the cache-hit benchmark's baseline.
public enum StubLLMServer {
    /// Builds the server; `onListening` receives the bound port (useful with port 0).
    public static func buildApplication(
        host: String = "127.0.0.1",
        port: Int = 0,
        state: StubLLMState,
        durableBaseline: DurableBaseline? = nil,
        logger: Logger = Logger(label: "stub-llm"),
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: StubRequestContext.self)
        let openAI = ChatCompletionsHandler(state: state, shape: .openAI)
        router.post("v1/chat/completions", use: openAI.handle)
        router.post("chat/completions", use: openAI.handle)
        router.post("v1/messages", use: ChatCompletionsHandler(state: state, shape: .anthropic).handle)
        router.post("api/chat", use: ChatCompletionsHandler(state: state, shape: .ollama).handle)
        // The model list a backend reads to learn what server it talks to (see StubBehaviour.serverOwner).
        let models: @Sendable (Request, StubRequestContext) async throws -> ModelList = { _, _ in
            await ModelList(data: [.init(ownedBy: state.listModels())])
        }
        router.get("v1/models", use: models)
        router.get("models", use: models)
        router.get("hello") { _, _ in "hello" }
        if let durableBaseline { router.post("baseline/durable", use: durableBaseline.handle) }
        router.get("control") { _, _ in await ControlStatus(state) }
        router.post("control") { request, context in
            let change = try await request.decode(as: ControlChange.self, context: context)
            await state.set(
                behaviour: change.behaviour,
                latencyMilliseconds: change.latencyMs,
                failFirst: change.failFirst,
                retryAfter: change.retryAfter
            )
            if change.tokenDelayMs != nil || change.stallAfterTokens != nil {
                await state.setStreaming(tokenDelayMilliseconds: change.tokenDelayMs ?? 0, stallAfterTokens: change.stallAfterTokens)
            }
            return await ControlStatus(state)
        }
        router.post("control/reset") { _, _ in
            await state.reset()
            return await ControlStatus(state)
        }
        return Application(
            router: router,
            // Benchmarks open a thousand connections at once; a short accept queue would add SYN retries of a second.
            configuration: .init(address: .hostname(host, port: port), serverName: "stub-llm", backlog: 4096),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }
}

/// OpenAI's model list with the one model the stub serves, `owned_by` as the server it plays.
struct ModelList: ResponseEncodable {
    struct Model: Encodable {
        var id = "stub"
        var object = "model"
        var ownedBy: String
    }
    var object = "list"
    var data: [Model]
}

/// The body of `POST /control`.
struct ControlChange: Decodable {
    var behaviour: StubBehaviour
    var latencyMs: Int?
    var failFirst: Int?
    var retryAfter: String?
    var tokenDelayMs: Int?
    var stallAfterTokens: Int?
}

/// The answer of every control route.
struct ControlStatus: ResponseEncodable {
    var behaviour: StubBehaviour
    var latencyMs: Int
    var calls: Int
    var maxInFlight: Int
    /// The failures still to come, under the name that sets them.
    var failFirst: Int
    var connections: Int
    var tokenDelayMs: Int
    var stallAfterTokens: Int?

    init(_ state: StubLLMState) async {
        tokenDelayMs = await state.tokenDelayMilliseconds
        stallAfterTokens = await state.stallAfterTokens
        connections = await state.connections
        failFirst = await state.failuresLeft
        behaviour = await state.behaviour
        latencyMs = await state.latencyMilliseconds
        calls = await state.calls
        maxInFlight = await state.maxInFlight
    }
}
