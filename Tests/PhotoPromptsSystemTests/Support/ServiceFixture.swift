import Configuration
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport

/// A fresh SQLite path in a new temporary folder.
func temporaryDatabasePath() -> String {
    let folder = scratchPath("database")
    return folder.appendingPathComponent("test.sqlite").path
}

/// The environment a test service starts with: the stub model over HTTP, a short timeout, a fresh database.
func testEnvironment(stub: StubLLMFixture?, databasePath: String = temporaryDatabasePath()) -> [String: String] {
    var environment = [
        "DATABASE_PATH": databasePath,
        "PROMPTS_DIRECTORY": repositoryPromptsDirectory,
        "LLM_TIMEOUT": "1",
        // Tests fire many requests as one user; RateLimitTests turns the limits on.
        "RATE_LIMIT_PER_USER": "0",
        "RATE_LIMIT_PER_KEY": "0",
    ]
    if let stub {
        environment["LLM_PROVIDER"] = "openai"
        environment["LLM_BASE_URL"] = stub.baseURL
        environment["LLM_MODEL"] = "stub-model"
    }
    return environment
}

/// Runs the real service on a real socket and hands `body` a libcurl client pointed at it.
func withService<Value: Sendable>(
    _ environment: [String: String],
    clock: any WallClock = SystemWallClock(),
    _ body: @Sendable (ServiceClient) async throws -> Value
) async throws -> Value {
    var logger = Logger(label: "photo-prompts-test")
    logger.logLevel = .critical
    let app = try await buildApplication(try configuration(environment), dependencies: AppDependencies(clock: clock), logger: logger)
    return try await app.test(.live) { client in
        guard let port = client.port else { throw FixtureError("the live test client has no port") }
        return try await body(ServiceClient(port: port))
    }
}
