import Foundation
import Hummingbird
import Logging

/// The stub model as an HTTP server speaking the OpenAI Chat Completions API, plus a control endpoint.
///
/// Routes: `POST /v1/chat/completions` (and `/chat/completions`); `GET /control` for the behaviour and call count;
/// `POST /control` with `{"behaviour": "hang", "latency_ms": 0}` to switch; `POST /control/reset`.
public enum StubLLMServer {
    /// Builds the server; `onListening` receives the bound port (useful with port 0).
    public static func buildApplication(
        host: String = "127.0.0.1", port: Int = 0, state: StubLLMState, logger: Logger = Logger(label: "stub-llm"),
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        let completions = ChatCompletionsHandler(state: state)
        router.post("v1/chat/completions", use: completions.handle)
        router.post("chat/completions", use: completions.handle)
        router.get("control") { _, _ in await ControlStatus(state) }
        router.post("control") { request, context in
            let change = try await request.decode(as: ControlChange.self, context: context)
            await state.set(behaviour: change.behaviour, latencyMilliseconds: change.latencyMilliseconds)
            return await ControlStatus(state)
        }
        router.post("control/reset") { _, _ in
            await state.reset()
            return await ControlStatus(state)
        }
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "stub-llm"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) }, logger: logger
        )
    }
}

/// The body of `POST /control`.
struct ControlChange: Decodable {
    var behaviour: StubBehaviour
    var latencyMilliseconds: Int?

    enum CodingKeys: String, CodingKey {
        case behaviour
        case latencyMilliseconds = "latency_ms"
    }
}

/// The answer of every control route.
struct ControlStatus: ResponseEncodable {
    var behaviour: StubBehaviour
    var latencyMilliseconds: Int
    var calls: Int
    var maxInFlight: Int

    init(_ state: StubLLMState) async {
        behaviour = await state.behaviour
        latencyMilliseconds = await state.latencyMilliseconds
        calls = await state.calls
        maxInFlight = await state.maxInFlight
    }

    enum CodingKeys: String, CodingKey {
        case behaviour, calls
        case latencyMilliseconds = "latency_ms"
        case maxInFlight = "max_in_flight"
    }
}
