import Configuration
import Foundation
import Hummingbird
import Logging

/// The parts a test may swap; production uses ``AppDependencies/live``.
public struct AppDependencies: Sendable {
    /// The wall clock for expiry rules.
    public var clock: any WallClock
    /// The transport for HTTP backends; `nil` means a new ``CurlTransport``.
    public var transport: (any HTTPTransport)?

    /// Creates dependencies.
    public init(clock: any WallClock = SystemWallClock(), transport: (any HTTPTransport)? = nil) {
        self.clock = clock
        self.transport = transport
    }

    /// The system clock and libcurl.
    public static var live: AppDependencies { AppDependencies() }
}

/// Wires every part together: store, templates, backend, pipeline, routes and background services.
///
/// - Throws: ``TemplateError`` for an unreadable template or fallback file, or a database error.
public func buildApplication(
    _ configuration: AppConfiguration,
    dependencies: AppDependencies,
    logger: Logger
) async throws -> some ApplicationProtocol {
    let (store, postgres) = try openStore(configuration, logger: logger)
    let templates = try TemplateLibrary(
        name: configuration.templateName,
        directory: configuration.promptsDirectory,
        clock: dependencies.clock,
        logger: logger
    )
    let stats = StatsRecorder(store: store, clock: dependencies.clock)
    let metrics = ServiceMetrics()
    let generator = makeGenerator(configuration, store: store, dependencies: dependencies, metrics: metrics)
    metrics.readGauges(
        from: .init(backendInFlight: { generator.admission.inFlight }, breakers: { await generator.chain.breakerStates() })
    )
    let sessions = PromptSessions(
        generator: generator,
        store: store,
        templates: templates,
        stats: stats,
        metrics: metrics,
        clock: dependencies.clock,
        refreshLimit: configuration.refreshLimit,
        sessionTTL: configuration.sessionTTL
    )

    let router = Router(context: AppRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: RequestLogMiddleware(metrics: metrics))
    router.add(middleware: RequestBodyMiddleware(readTimeout: .seconds(configuration.readTimeout)))
    router.addRoutes(HealthController().endpoints)
    router.addRoutes(ReadinessController(store: store, templates: templates, breakers: { await generator.chain.breakerStates() }).endpoints)
    router.group("v1")
        .add(middleware: ClientKeyMiddleware(keys: configuration.clientKeys))
        .addRoutes(
            PromptsController(
                sessions: sessions,
                idempotency: IdempotentRequests(store: store, clock: dependencies.clock),
                limits: RequestLimits(
                    perKeyPerMinute: configuration.rateLimitPerKey > 0 ? configuration.rateLimitPerKey : nil,
                    perUserPerMinute: configuration.rateLimitPerUser > 0 ? configuration.rateLimitPerUser : nil,
                    clock: dependencies.clock,
                    metrics: metrics
                ),
                keepAlive: .milliseconds(Int64(configuration.streamKeepAlive * 1000))
            ).endpoints
        )
        .addRoutes(UsersController(store: store, refreshLimit: configuration.refreshLimit).endpoints)
    // Without a key there is no admin API at all: 404, exactly like a route that does not exist.
    if let adminKey = configuration.adminAPIKey {
        router.group("admin")
            .add(middleware: AdminAuthMiddleware(adminKey: adminKey))
            .addRoutes(AdminController(templates: templates, stats: stats, store: store, clock: dependencies.clock).endpoints)
        // Prometheus scrapes with the admin key as a bearer token (`authorization` in its scrape config).
        router.group("metrics")
            .add(middleware: AdminAuthMiddleware(adminKey: adminKey))
            .get { _, _ in
                Response(
                    status: .ok,
                    headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: await metrics.render()))
                )
            }
    }

    MethodNotAllowed.register(on: router, adminEnabled: configuration.adminAPIKey != nil)

    let connections = ConnectionLimit(maximum: configuration.maxConnections)
    let listening = ServerListening()
    var app = Application(
        router: router,
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [ConnectionLimitHandler(limit: connections), MalformedRequestHandler()],
                idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000))
            )
        ),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "PhotoPrompts",
            // A burst of new connections beyond the accept queue is dropped by the kernel and the client retries its
            // SYN a second later: with Hummingbird's 256, 1,000 simultaneous connections had answers a second late.
            // The kernel caps this at net.core.somaxconn.
            backlog: 4096
        ),
        onServerRunning: { _ in listening.open() },
        logger: logger
    )
    if let postgres {
        // The pool is a lifecycle service; first added, so it stops last. The migrations need it running, and
        // finish before the server listens: a database that does not answer fails start-up, named.
        app.addServices(postgres.client)
        app.beforeServerStarts { try await migrate(postgres, configuration) }
    }
    // Stopped after the server has answered its last request and the stats are written.
    app.addServices(CloseStoreOnShutdown(store: store))
    app.addServices(
        ExpiryPruningService(
            store: store,
            clock: dependencies.clock,
            interval: .seconds(configuration.pruneInterval),
            logger: logger,
            ready: { await listening.wait() }
        ),
        StatsFlushService(recorder: stats, interval: .seconds(configuration.statsFlushInterval), logger: logger),
        ReloadOnHangup(library: templates)
    )
    if configuration.watchInterval > 0 {
        app.addServices(TemplateWatcher(library: templates, interval: .seconds(configuration.watchInterval)))
    }
    logger.info(
        "PhotoPrompts configured",
        metadata: configuration.loggableSummary.merging([
            "template_versions": "\(TemplateLibrary.describe(templates.live.versions))",
            // Where the gate checks words: a language without a dictionary skips that check (docs/OPERATORS.md).
            "gate_word_check_languages": "\(SpellingDictionaries.system.languages.joined(separator: ","))",
        ]) { $1 }
    )
    return app
}

/// The store `DATABASE_URL` names (PostgreSQL, shared by instances), else the SQLite file at `DATABASE_PATH`, in
/// front of it the in-memory cache layer; and the PostgreSQL store itself, whose pool the app runs as a service and
/// migrates before the server starts.
///
/// A claim (a refresh reservation, a refresh turn, an idempotency key being answered) lapses a little after its
/// request's deadline: by then the request has been answered, and only a process that died can still hold it.
func openStore(_ configuration: AppConfiguration, logger: Logger) throws -> (any PromptStore, PostgresPromptStore?) {
    let claimLease = configuration.timeout + PromptStoreDefaults.claimMargin
    if let url = configuration.databaseURL {
        let store = PostgresPromptStore(url: url, maxConnections: configuration.databasePoolSize, claimLease: claimLease, logger: logger)
        return (MemoryCachedStore(store), store)
    }
    do {
        return (MemoryCachedStore(try SQLitePromptStore(path: configuration.databasePath, claimLease: claimLease)), nil)
    } catch {
        throw cannotOpen(error, configuration)
    }
}

/// Migrates PostgreSQL once its pool runs, failing start-up with the database named (password masked) and why.
private func migrate(_ store: PostgresPromptStore, _ configuration: AppConfiguration) async throws {
    do {
        try await store.migrate()
    } catch {
        throw cannotOpen(error, configuration)
    }
}

/// A store that cannot be opened, said so an operator knows what to fix: the database and the reason in words, not
/// "SQLite error 14".
private func cannotOpen(_ error: any Error, _ configuration: AppConfiguration) -> ConfigurationError {
    let database = configuration.databaseURL.map { "DATABASE_URL \($0.redacted)" } ?? "DATABASE_PATH \(configuration.databasePath)"
    let reason = StoreFault(error)?.reason ?? (error as NSError).localizedDescription
    return ConfigurationError(key: database, problem: "cannot be opened: \(reason)")
}

/// The pipeline over the configured backend chain; shared by the service and `photo-prompts generate`.
public func makeGenerator(
    _ configuration: AppConfiguration,
    store: any PromptStore,
    dependencies: AppDependencies,
    metrics: ServiceMetrics = ServiceMetrics()
) -> PromptGenerator {
    let transport = dependencies.transport ?? CurlTransport()
    let chain = BackendChain(
        backends: configuration.backends.map { backend in
            let made = makeBackend(backend, transport: transport)
            return backend.languages.map { LanguageScopedBackend(made, languages: $0) } ?? made
        },
        failureThreshold: configuration.breakerFailures,
        coolDown: configuration.breakerCoolDown,
        retryAfterMax: configuration.backendRetryAfterMax,
        clock: dependencies.clock
    )
    let generator = PromptGenerator(
        chain: chain,
        store: store,
        clock: dependencies.clock,
        timeout: .seconds(configuration.timeout),
        cacheTTL: configuration.cacheTTL,
        maxInFlight: configuration.backendMaxInFlight,
        metrics: metrics
    )
    return generator
}

/// The backend one configuration entry names.
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
