import Configuration
import Foundation
import Hummingbird
import Logging
import PromptBackends
import PromptDomain
import PromptGeneration
import PromptStores
import PromptTemplates
import ServiceLifecycle
import StubModel
import Tracing
import UnixSignals

/// The parts a test may swap; production uses ``AppDependencies/live``.
public struct AppDependencies: Sendable {
    /// The wall clock for expiry rules.
    public var clock: any WallClock
    /// The transport for HTTP backends; `nil` means a new ``CurlTransport``.
    public var transport: (any HTTPTransport)?
    /// Replaces the configured backends (`LLM_*`, `LLM_2_*` …), e.g. by a test's scripted model; `nil` keeps them.
    public var backends: [any LLMBackend]?
    /// The store, in place of the configured one (`DATABASE_URL`, `DATABASE_PATH`); `nil` opens that one.
    public var store: (any PromptStore)?
    /// Loaded templates in place of `PROMPTS_DIRECTORY`; `nil` reads it. The fast tests' apps share one load.
    public var templates: TemplateLibrary?
    /// `nil` builds one; a test hands in its own to see it served.
    package var deadlines: DeadlineWatch?
    /// For templates the app loads itself; `nil` opens Debian's. Handed-in `templates` bring their own.
    package var dictionaries: SpellingDictionaries?
    /// `nil` keeps no spans and passes the caller's `traceparent` on (``TraceContextRelay``).
    public var tracer: (any Tracer)?
    /// Runs with the app's services and stops after them, so the last spans go.
    public var traceExporter: (any Service)?

    public init(
        clock: any WallClock = SystemWallClock(),
        transport: (any HTTPTransport)? = nil,
        backends: [any LLMBackend]? = nil,
        store: (any PromptStore)? = nil,
        templates: TemplateLibrary? = nil
    ) {
        self.clock = clock
        self.transport = transport
        self.backends = backends
        self.store = store
        self.templates = templates
    }

    /// The system clock and libcurl.
    public static var live: AppDependencies { AppDependencies() }
}

/// Wires the services, the routes, the server and the background services (in the order they must stop).
/// - Throws: ``TemplateError`` for an unreadable template or fallback file, or a database error.
public func buildApplication(
    _ configuration: AppConfiguration,
    dependencies: AppDependencies,
    logger: Logger
) async throws -> some ApplicationProtocol {
    let services = try buildServices(configuration, dependencies: dependencies, logger: logger)
    // Opened now, off the request path; only the languages some backend writes, the rest get the fallback copy.
    services.templates.dictionaries.openInBackground(languages: configuration.writtenLanguages)
    // One count for the whole server: the channel handlers below are made anew for each connection.
    let connections = ConnectionLimit(maximum: configuration.maxConnections)
    var app = Application(
        router: buildRouter(services),
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [
                    ConnectionLimitHandler(limit: connections), MalformedRequestHandler(), ClientDepartureHandler(departures: services.departures),
                ],
                idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000))
            )
        ),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "PhotoPrompts",
            // Connections past the accept queue are dropped and retried a second later (with 256, 1,000 at once
            // were a second late). Capped by net.core.somaxconn.
            backlog: 4096
        ),
        onServerRunning: { _ in services.listening.open() },
        logger: logger
    )
    addBackgroundServices(to: &app, services, logger: logger)
    logger.info(
        "PhotoPrompts configured",
        metadata: configuration.loggableSummary.merging([
            "template_versions": "\(TemplateLibrary.describe(services.templates.live.versions))",
            // Where the gate checks words: a language without a dictionary skips that check (docs/OPERATORS.md).
            "gate_word_check_languages": "\(services.templates.dictionaries.languages.joined(separator: ","))",
        ]) { $1 }
    )
    return app
}

/// The lifecycle services, added in start order; they stop in reverse.
private func addBackgroundServices<Responder>(to app: inout Application<Responder>, _ services: AppServices, logger: Logger) {
    let configuration = services.configuration
    // First added, so it stops last: the spans of the last requests and of the shutdown are sent.
    if let exporter = services.traceExporter { app.addServices(exporter) }
    if let postgres = services.stores.postgres {
        // Stops after all but the exporter. Migrating before the server listens fails start-up on a silent database.
        app.addServices(postgres.client)
        app.beforeServerStarts { try await migrate(postgres, configuration) }
    }
    // libcurl's loop: stopped after the server has answered its last request, so no model call is cut short.
    if let transport = services.transport as? any Service { app.addServices(transport) }
    // Stopped after the server has answered its last request and the stats are written.
    app.addServices(CloseStoreOnShutdown(store: services.stores.maintenance))
    // Deadline watch and write batcher: stopped after the last request and stats write, before the store closes.
    app.addServices(WorkLoopService(loop: services.deadlines.loop))
    for loop in services.stores.workLoops { app.addServices(WorkLoopService(loop: loop)) }
    app.addServices(
        ExpiryPruningService(
            store: services.stores.maintenance,
            clock: services.clock,
            interval: .seconds(configuration.pruneInterval),
            logger: logger,
            ready: { await services.listening.wait() }
        ),
        StatsFlushService(recorder: services.stats, interval: .seconds(configuration.statsFlushInterval), logger: logger),
        ReloadOnHangup(library: services.templates)
    )
    if configuration.watchInterval > 0 {
        app.addServices(TemplateWatcher(library: services.templates, interval: .seconds(configuration.watchInterval)))
    }
}
/// Serves a ``WorkLoop`` (the deadline watch, SQLite's write batcher) in one of the service group's tasks until
/// graceful shutdown; after that the loop runs its passes in tasks of their own, for whatever work is left.
private struct WorkLoopService: Service {
    let loop: WorkLoop

    func run() async throws {
        await cancelWhenGracefulShutdown { await loop.serve() }
    }
}

/// Closes the store last of all: services stop in reverse, so the server and the stats flush finish first.
/// Closing SQLite checkpoints the WAL, so the file is whole on its own; closing PostgreSQL ends the pool.
private struct CloseStoreOnShutdown: Service {
    let store: any StoreMaintenance

    func run() async throws {
        // Returns when graceful shutdown begins; if the task is cancelled instead, close all the same.
        try? await gracefulShutdown()
        try await store.close()
    }
}

/// Writes the ``StatsRecorder``'s counts every `interval`, and once more at shutdown.
private struct StatsFlushService: Service {
    let recorder: StatsRecorder
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            do {
                try await recorder.flush()
            } catch {
                logger.error("writing template stats failed; will retry", metadata: ["error": "\(error)"])
            }
        }
    }
}

/// Reloads the templates on SIGHUP, the Unix convention for "re-read your configuration".
private struct ReloadOnHangup: Service {
    let library: TemplateLibrary

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            library.reload(trigger: "SIGHUP")
        }
    }
}

/// The pipeline over the configured backend chain; shared by the service and `photo-prompts generate`.
package func makeGenerator(
    _ configuration: AppConfiguration,
    cache: any PromptCacheStore,
    dependencies: AppDependencies,
    deadlines: DeadlineWatch = DeadlineWatch(),
    metrics: ServiceMetrics = ServiceMetrics()
) -> PromptGenerator {
    let chain = BackendChain(
        backends: dependencies.backends ?? configuredBackends(configuration, transport: dependencies.transport ?? CurlTransport()),
        failureThreshold: configuration.breakerFailures,
        coolDown: configuration.breakerCoolDown,
        retryAfterMax: configuration.backendRetryAfterMax,
        clock: dependencies.clock,
        deadlines: deadlines,
        tracer: dependencies.tracer ?? TraceContextRelay()
    )
    return PromptGenerator(
        chain: chain,
        cache: cache,
        clock: dependencies.clock,
        timeout: .seconds(configuration.timeout),
        cacheTTL: configuration.cacheTTL,
        maxInFlight: configuration.backendMaxInFlight,
        metrics: metrics
    )
}

/// The backends the configuration names, in order, each scoped to its `LLM_LANGUAGES`.
func configuredBackends(_ configuration: AppConfiguration, transport: any HTTPTransport) -> [any LLMBackend] {
    configuration.backends.map { backend in
        let made = makeBackend(backend, transport: transport)
        return backend.languages.map { LanguageScopedBackend(made, languages: $0) } ?? made
    }
}

func makeBackend(_ configuration: BackendConfiguration, transport: any HTTPTransport) -> any LLMBackend {
    // BackendConfiguration guarantees a base URL and a model for every provider but the stub.
    let baseURL = configuration.baseURL ?? ""
    let model = configuration.model ?? ""
    switch configuration.provider {
    case .stub:
        return StubBackend()
    case .openai:
        return OpenAIBackend(transport: transport, baseURL: baseURL, model: model, apiKey: configuration.apiKey, options: configuration.options)
    case .anthropic:
        return AnthropicBackend(transport: transport, baseURL: baseURL, model: model, apiKey: configuration.apiKey)
    case .ollama:
        return OllamaBackend(transport: transport, baseURL: baseURL, model: model, options: configuration.options)
    }
}

/// The default in-process model, so `make run` works offline; here so the backends' module needn't import the stub.
struct StubBackend: LLMBackend {
    let identity = BackendIdentity(provider: "stub", model: "stub-writer-1")

    /// The questions, one per line, exactly as a well-behaved model would answer.
    func complete(_ request: LLMRequest, timeout: Duration) async throws -> LLMReply {
        let questions = StubPromptWriter.questions(system: request.system, user: request.userText)
        // Streamed, it writes one line at a time, as a model would.
        if let observer = request.observer {
            for question in questions { observer.received(question + "\n", logprobs: nil) }
        }
        return LLMReply(text: questions.joined(separator: "\n"), finishReason: .stop)
    }
}
