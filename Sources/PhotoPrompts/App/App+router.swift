import Hummingbird

/// The service's router: its routes, then a 405 for every other method on each of them.
func buildRouter(_ services: AppServices) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    addRoutes(of: services, to: router)
    MethodNotAllowed.register(on: router)
    return router
}

/// Every route of the service, each listed once: the 405 answers are derived from what this adds, and a router
/// test checks it against `openapi.yaml`.
func addRoutes(of services: AppServices, to router: Router<AppRequestContext>) {
    let configuration = services.configuration
    router.add(middleware: RequestTracingMiddleware(tracer: services.tracer))
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: RequestLogMiddleware(metrics: services.metrics))
    router.add(
        middleware: RequestBodyMiddleware(readTimeout: .seconds(configuration.readTimeout), deadlines: services.deadlines, tracer: services.tracer)
    )
    // Checks nothing else, so orchestrators do not restart a healthy process because a dependency is slow.
    router.get("healthz") { _, _ in ["status": "ok"] }
    router.addRoutes(
        ReadinessController(
            store: services.stores.maintenance,
            templates: services.templates,
            deadlines: services.deadlines,
            breakers: { await services.generator.chain.breakerStates() }
        )
        .endpoints
    )
    router.group("v1")
        .add(middleware: ClientKeyMiddleware(keys: configuration.clientKeys))
        .addRoutes(
            PromptsController(
                sessions: services.sessions,
                idempotency: services.stores.idempotency,
                clock: services.clock,
                limits: RequestLimits(
                    perKeyPerMinute: configuration.rateLimitPerKey > 0 ? configuration.rateLimitPerKey : nil,
                    perUserPerMinute: configuration.rateLimitPerUser > 0 ? configuration.rateLimitPerUser : nil,
                    clock: services.clock,
                    metrics: services.metrics
                ),
                deadlines: services.deadlines,
                departures: services.departures,
                keepAlive: .milliseconds(Int64(configuration.streamKeepAlive * 1000))
            ).endpoints
        )
        .addRoutes(UsersController(store: services.stores.userData, refreshLimit: configuration.refreshLimit).endpoints)
    // Without a key there is no admin API at all: 404, exactly like a route that does not exist.
    if let adminKey = configuration.adminAPIKey {
        // The console's page carries no data: it is served without the key, which the operator types into it.
        router.group("admin/console")
            .addRoutes(ConsolePage(directory: configuration.consoleDirectory, chartLibrary: configuration.consoleChartLibrary).endpoints)
        router.group("admin")
            .add(middleware: AdminAuthMiddleware(adminKey: adminKey))
            .addRoutes(
                AdminController(templates: services.templates, stats: services.stats, store: services.stores.stats, clock: services.clock).endpoints
            )
            .addRoutes(
                ConsoleController(
                    templates: services.templates,
                    stats: services.stats,
                    store: services.stores.stats,
                    archive: services.stores.archive,
                    backends: .init(
                        identities: services.generator.chain.identities,
                        modes: configuration.backends.count == services.generator.chain.identities.count
                            ? configuration.backends.map(\.options.structuredOutput.rawValue) : nil,
                        breakers: { await services.generator.chain.breakerStates() },
                        tally: services.metrics.backends,
                        startedAt: services.startedAt
                    ),
                    clock: services.clock
                ).endpoints
            )
        // Prometheus scrapes with the admin key as a bearer token (`authorization` in its scrape config).
        router.group("metrics")
            .add(middleware: AdminAuthMiddleware(adminKey: adminKey))
            .get { _, _ in
                Response(
                    status: .ok,
                    headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: await services.metrics.render()))
                )
            }
    }
}
