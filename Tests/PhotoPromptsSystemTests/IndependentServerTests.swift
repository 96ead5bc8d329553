import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import Testing

extension SystemTests {
    /// The service against an OpenAI-compatible server it did not write: `ai-mock` from PyPI (MockAI), which answers
    /// `/chat/completions` by echoing the last user message, ignores every field it does not know, and has no model
    /// list (405). `make peers` installs it in `.models/peers`.
    @Suite("An independent OpenAI-compatible server (ai-mock from PyPI)", .serialized)
    struct IndependentServerTests {
        static let executable = repositoryDirectory + "/.models/peers/bin/ai-mock"

        /// Runs `body` with ai-mock's OpenAI base URL, on a free loopback port.
        static func withMock(_ body: (String) async throws -> Void) async throws {
            guard FileManager.default.isExecutableFile(atPath: executable) else {
                try MissingDependency.skipOrFail("ai-mock in .models/peers: `make peers` installs it from PyPI")
            }
            let port = try freeLoopbackPort()
            // ai-mock starts uvicorn by name: the virtual environment's bin folder goes first on PATH.
            let path = (executable as NSString).deletingLastPathComponent + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let server = try ChildProcess(
                URL(fileURLWithPath: executable),
                arguments: ["server", "--host", "127.0.0.1", "--port", "\(port)"],
                environment: ["PATH": path]
            )
            defer { kill(server.processIdentifier, SIGKILL) }
            _ = try await server.firstLine(matching: { $0.contains("Uvicorn running") }, timeout: .seconds(30))
            try await body("http://127.0.0.1:\(port)/openai")
            kill(server.processIdentifier, SIGKILL)
            _ = try? await server.waitForExit(timeout: .seconds(10))
        }

        @Test("With auto, a server with no model list is asked for the JSON schema, answers 200 ignoring it, and its reply is judged")
        func autoAgainstAnIndependentServer() async throws {
            // The echo brings back the user message: a template that ends it with a good question lets one card through.
            let prompts = try TemporaryPrompts()
            let marker = "What small detail of this photo would you like to remember years from now?"
            try prompts.append("photo-journal/user.mustache", lines: [marker])
            try await Self.withMock { baseURL in
                var environment = operatorEnvironment(stub: nil, prompts: prompts)
                environment.merge(["LLM_PROVIDER": "openai", "LLM_BASE_URL": baseURL, "LLM_MODEL": "mock", "LLM_TIMEOUT": "5"]) { $1 }
                try await withService(environment) { client in
                    let learned = await ModelListProbe.strongestOutput(
                        transport: ServiceClient.transport,
                        modelsURL: baseURL + "/models",
                        headers: [],
                        timeout: .seconds(5)
                    )
                    #expect(learned == .jsonSchema, "not llama.cpp's: no grammar")
                    let answer = try await client.startSession()
                    #expect(answer.prompts.count == 3)
                    #expect(answer.prompts.first { $0.source == .model }?.text == marker, "\(answer.prompts)")
                    #expect(answer.backend?.provider == "openai")
                }
            }
        }
    }
}
