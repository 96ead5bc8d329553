import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import StubLLM

/// `stub-llm`: a fake OpenAI-compatible model server for tests and local runs.
@main
struct StubLLMCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stub-llm",
        abstract: "Serve a deterministic stub of the Chat Completions API.",
        discussion: "Behaviours: \(StubBehaviour.allCases.map(\.rawValue).joined(separator: ", ")). Switch at run time with POST /control."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port; 0 picks a free one. The bound port is printed on stdout.")
    var port = 0

    @Option(help: "The behaviour to start with.")
    var behaviour = StubBehaviour.normal.rawValue

    @Option(name: .customLong("latency-ms"), help: "Delay before each answer, in milliseconds.")
    var latencyMilliseconds = 0

    @Option(name: .customLong("token-delay-ms"), help: "For a streamed reply, the pause between tokens, in milliseconds.")
    var tokenDelayMilliseconds = 0

    @Option(name: .customLong("stall-after-tokens"), help: "For a streamed reply, stop after this many tokens and hold the connection.")
    var stallAfterTokens: Int?

    @Option(
        name: .customLong("baseline-database"),
        help: "A SQLite file for POST /baseline/durable, the cache-hit benchmark's baseline; without it the route is absent."
    )
    var baselineDatabase: String?

    func validate() throws {
        guard StubBehaviour(rawValue: behaviour) != nil else {
            throw ValidationError("unknown behaviour '\(behaviour)'")
        }
    }

    func run() async throws {
        let state = StubLLMState(
            behaviour: StubBehaviour(rawValue: behaviour) ?? .normal,
            latencyMilliseconds: latencyMilliseconds,
            tokenDelayMilliseconds: tokenDelayMilliseconds,
            stallAfterTokens: stallAfterTokens
        )
        let host = self.host
        let baseline = try baselineDatabase.map(DurableBaseline.init(path:))
        let app = StubLLMServer.buildApplication(host: host, port: port, state: state, durableBaseline: baseline) { port in
            // Tests and scripts read this line to find the port.
            FileHandle.standardOutput.write(Data("stub-llm listening on http://\(host):\(port)\n".utf8))
        }
        // Hanging answers would hold graceful shutdown for an hour: release them as soon as shutdown begins.
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: app), .init(service: ReleaseOnShutdown(state: state))],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: Logger(label: "stub-llm")
            )
        )
        try await group.run()
    }
}

/// Waits for graceful shutdown, then ends every hanging or trickling answer so the server can stop.
struct ReleaseOnShutdown: Service {
    let state: StubLLMState

    func run() async throws {
        try? await gracefulShutdown()
        await state.releaseAll()
    }
}
