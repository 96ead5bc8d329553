import Foundation
import Logging
import PromptBackends
import PromptDomain
import PromptGeneration
import PromptStores
import PromptTemplates
import ServiceLifecycle
import Tracing

/// What the routes and background services share, built once by ``buildServices(_:dependencies:logger:)``.
/// The one place the store's concerns are taken apart: each part gets only the seams it calls.
struct AppServices: Sendable {
    let configuration: AppConfiguration
    let clock: any WallClock
    let stores: Stores
    let templates: TemplateLibrary
    let stats: StatsRecorder
    let metrics: ServiceMetrics
    let generator: PromptGenerator
    let sessions: SessionService
    /// Every deadline the app keeps, watched by one loop the service group serves.
    let deadlines: DeadlineWatch
    /// Each connection's client, told by the server's handlers when it leaves, looked up by the prompt routes.
    let departures = ClientDepartures()
    let traceExporter: (any Service)?
    /// `nil` when a test hands in backends; libcurl's loop, stopped as a lifecycle service after the server.
    let transport: (any HTTPTransport)?
    /// When the services were built: where the backends' counts since start-up begin.
    let startedAt: Date
    /// Opens when the server listens; the pruner waits for it so its first sweep does not slow start-up.
    let listening = ServerListening()
    /// The request's spans: the tracer the model calls use too.
    var tracer: any Tracer { generator.tracer }

    /// The store, cut by concern.
    struct Stores: Sendable {
        let sessions: any SessionStore
        let history: any PromptHistoryStore
        /// The prompt cache, with its in-memory layer in front.
        let cache: any PromptCacheStore
        let idempotency: any IdempotencyStore
        let stats: any StatsStore
        let archive: any ConsoleArchiveStore
        let userData: any UserDataStore
        let maintenance: any StoreMaintenance
        /// PostgreSQL's store itself, when `DATABASE_URL` names one: its pool runs as a service and migrates first.
        let postgres: PostgresPromptStore?
        /// The loops the store writes through (SQLite's write batcher), for the service group to serve.
        let workLoops: [WorkLoop]

        init(_ store: any PromptStore, postgres: PostgresPromptStore?) {
            sessions = store
            history = store
            cache = MemoryCachedStore(store)
            idempotency = store
            stats = store
            archive = store
            userData = store
            maintenance = store
            self.postgres = postgres
            workLoops = (store as? SQLitePromptStore).map { [$0.batcher.loop] } ?? []
        }
    }
}

/// Opens once the server listens, so after the migrations: services start with the server, and wait here for them.
/// One waiter; it also returns when its task is cancelled.
final class ServerListening: Sendable {
    private let (opened, continuation) = AsyncStream.makeStream(of: Void.self)

    /// Called from the application's `onServerRunning`.
    func open() { continuation.finish() }

    func wait() async {
        for await _ in opened {}
    }
}

/// Opens the store, reads the templates and builds the pipeline.
/// - Throws: ``TemplateError`` for an unreadable template or fallback file, ``ConfigurationError`` for a bad store.
func buildServices(_ configuration: AppConfiguration, dependencies: AppDependencies, logger: Logger) throws -> AppServices {
    let clock = dependencies.clock
    let deadlines = dependencies.deadlines ?? DeadlineWatch()
    let (store, postgres) = try dependencies.store.map { ($0, nil) } ?? openStore(configuration, logger: logger)
    let stores = AppServices.Stores(store, postgres: postgres)
    let templates =
        try dependencies.templates
        ?? TemplateLibrary(
            name: configuration.templateName,
            directory: configuration.promptsDirectory,
            dictionaries: dependencies.dictionaries ?? SpellingDictionaries.debian(),
            clock: clock,
            logger: logger
        )
    let stats = StatsRecorder(store: stores.stats, clock: clock, archive: stores.archive, versions: { templates.versionsLoaded })
    let metrics = ServiceMetrics()
    var dependencies = dependencies
    if dependencies.backends == nil { dependencies.transport = dependencies.transport ?? CurlTransport() }
    let generator = makeGenerator(configuration, cache: stores.cache, dependencies: dependencies, deadlines: deadlines, metrics: metrics)
    metrics.readGauges(
        from: .init(backendInFlight: { generator.admission.inFlight }, breakers: { await generator.chain.breakerStates() })
    )
    let sessions = SessionService(
        generator: generator,
        store: stores.sessions,
        templates: templates,
        stats: stats,
        history: UserHistory(store: stores.history, window: configuration.promptHistoryDays * 86_400),
        sessionTTL: configuration.sessionTTL,
        refreshLimit: configuration.refreshLimit
    )
    return AppServices(
        configuration: configuration,
        clock: clock,
        stores: stores,
        templates: templates,
        stats: stats,
        metrics: metrics,
        generator: generator,
        sessions: sessions,
        deadlines: deadlines,
        traceExporter: dependencies.traceExporter,
        transport: dependencies.transport,
        startedAt: clock.now
    )
}

/// The store `DATABASE_URL` names, else the SQLite file at `DATABASE_PATH`; and the PostgreSQL store itself.
/// A claim (a refresh reservation, a refresh turn, an idempotency key being answered) lapses a little after its
/// request's deadline: by then the request has been answered, and only a process that died can still hold it.
func openStore(_ configuration: AppConfiguration, logger: Logger) throws -> (any PromptStore, PostgresPromptStore?) {
    let claimLease = configuration.timeout + PromptStoreDefaults.claimMargin
    if let url = configuration.databaseURL {
        let store = PostgresPromptStore(url: url, maxConnections: configuration.databasePoolSize, claimLease: claimLease, logger: logger)
        return (store, store)
    }
    do {
        return (try SQLitePromptStore(path: configuration.databasePath, claimLease: claimLease), nil)
    } catch {
        throw cannotOpen(error, configuration)
    }
}

/// Migrates PostgreSQL once its pool runs, failing start-up with the database named (password masked) and why.
func migrate(_ store: PostgresPromptStore, _ configuration: AppConfiguration) async throws {
    do {
        try await store.migrate()
    } catch {
        throw cannotOpen(error, configuration)
    }
}

/// The database and the reason in words, not "SQLite error 14", so an operator knows what to fix.
private func cannotOpen(_ error: any Error, _ configuration: AppConfiguration) -> ConfigurationError {
    let database = configuration.databaseURL.map { "DATABASE_URL \($0.redacted)" } ?? "DATABASE_PATH \(configuration.databasePath)"
    let reason = StoreFault(error)?.reason ?? (error as NSError).localizedDescription
    return ConfigurationError(key: database, problem: "cannot be opened: \(reason)")
}
