import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PhotoPrompts
import PromptBackends
import PromptDomain
import PromptStores
import PromptTemplates
import Tracing

/// A fresh SQLite path in a new temporary folder.
package func temporaryDatabasePath() -> String {
    scratchPath("database").appendingPathComponent("test.sqlite").path
}

/// The environment a test service starts with: the embedded stub model, a short timeout, and the database at
/// `databasePath`; with none, a router test's app keeps its data in memory (see ``app(_:clock:backends:store:)``).
package func baseEnvironment(databasePath: String? = nil) -> [String: String] {
    var environment = [
        "PROMPTS_DIRECTORY": repositoryPromptsDirectory,
        // Named, not defaulted: with API_KEYS set, a missing provider is refused at start-up.
        "LLM_PROVIDER": "stub",
        // The spec's 15 s: room for a re-ask or a shared call while the whole fast layer runs at once on two cores
        // (at 5 s, first requests met their deadline when other work shared the cores). A test about the deadline
        // sets its own; the system layer's fixtures use 1 s.
        "LLM_TIMEOUT": "15",
        // Tests fire many requests as one user; the rate-limit tests turn the limits on.
        "RATE_LIMIT_PER_USER": "0",
        "RATE_LIMIT_PER_KEY": "0",
    ]
    environment["DATABASE_PATH"] = databasePath
    return environment
}

/// Builds the real app from `environment` and hands `body` a client for its router, in process: every route,
/// middleware and store as served, without a socket (the fast layer).
package func withRouterService<Value: Sendable>(
    _ environment: [String: String] = baseEnvironment(),
    clock: any WallClock = SystemWallClock(),
    backends: [any LLMBackend]? = nil,
    store: (any PromptStore)? = nil,
    deadlines: DeadlineWatch? = nil,
    dictionaries: SpellingDictionaries = testDictionaries,
    tracer: (any Tracer)? = nil,
    _ body: @Sendable (ServiceClient) async throws -> Value
) async throws -> Value {
    try await app(environment, clock: clock, backends: backends, store: store, deadlines: deadlines, dictionaries: dictionaries, tracer: tracer)
        .test(.router) {
            client in
            try await body(ServiceClient(router: client))
        }
}

/// The app as `photo-prompts serve` builds it from `environment`, quiet; `backends` and `store`, when given, in place
/// of the configured ones. An environment that names no database gets a fresh ``InMemoryDatabase``: the fast layer's
/// store twin, which the store contract suite holds to the same rules as SQLite files and PostgreSQL.
package func app(
    _ environment: [String: String],
    clock: any WallClock = SystemWallClock(),
    backends: [any LLMBackend]? = nil,
    store: (any PromptStore)? = nil,
    deadlines: DeadlineWatch? = nil,
    dictionaries: SpellingDictionaries = testDictionaries,
    tracer: (any Tracer)? = nil
) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "photo-prompts-test")
    logger.logLevel = .critical
    // The app opens them on a thread too, but a request may come first: then it would open one on the pool.
    await DictionariesOpened.openOffThePool()
    let namesDatabase = environment["DATABASE_PATH"] != nil || environment["DATABASE_URL"] != nil
    let store = try store ?? (namesDatabase ? nil : InMemoryDatabase().open())
    let configuration = try configuration(environment)
    let usesRepositoryTemplates =
        configuration.promptsDirectory == repositoryPromptsDirectory && configuration.templateName == "photo-journal" && clock is SystemWallClock
        && dictionaries === testDictionaries
    var dependencies = AppDependencies(
        clock: clock,
        backends: backends,
        store: store,
        templates: usesRepositoryTemplates ? try repositoryTemplates.get() : nil
    )
    dependencies.deadlines = deadlines
    dependencies.dictionaries = dictionaries
    dependencies.tracer = tracer
    return try await buildApplication(configuration, dependencies: dependencies, logger: logger)
}

/// One load of the repository's `prompts/`, shared by every app a test builds over it with the system clock: loading
/// and checking the templates and 13 languages' copy was a sixth of the fast layer's CPU. Tests that edit templates
/// load their own copy (``TemporaryPrompts``); a reload of this one finds nothing changed.
private let repositoryTemplates = Result {
    try TemplateLibrary(
        name: "photo-journal",
        directory: repositoryPromptsDirectory,
        dictionaries: testDictionaries,
        clock: SystemWallClock(),
        logger: Logger(label: "test")
    )
}
