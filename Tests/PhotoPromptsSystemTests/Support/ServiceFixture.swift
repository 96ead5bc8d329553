import Configuration
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain

/// The environment a test service starts with: the stub model over HTTP, a short timeout, a fresh database.
func testEnvironment(stub: StubLLMFixture?, databasePath: String = temporaryDatabasePath()) -> [String: String] {
    var environment = baseEnvironment(databasePath: databasePath)
    // The system layer's deadline: its timing tests are built around 1 s, and five test cases run at a time.
    environment["LLM_TIMEOUT"] = "1"
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
    backends: [any LLMBackend]? = nil,
    _ body: @Sendable (ServiceClient) async throws -> Value
) async throws -> Value {
    try await app(environment, clock: clock, backends: backends).test(.live) { client in
        guard let port = client.port else { throw FixtureError("the live test client has no port") }
        return try await body(ServiceClient(port: port))
    }
}

/// `testEnvironment` with the admin API on and templates read from `prompts`.
func operatorEnvironment(stub: StubLLMFixture?, prompts: TemporaryPrompts, databasePath: String = temporaryDatabasePath()) -> [String: String] {
    operatorEnvironment(prompts: prompts, base: testEnvironment(stub: stub, databasePath: databasePath))
}
