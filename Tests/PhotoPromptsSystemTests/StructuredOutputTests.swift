import Foundation
import Logging
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptBackends
import PromptDomain
import PromptGeneration
import PromptStores
import PromptTemplates
import StubLLM
import Testing

extension SystemTests {
    @Suite("Structured output where the provider has it, and models that refuse parameters")
    struct RequestShapeTests {
        @Test(
            "llama.cpp's server is asked for a grammar of what the gate accepts, Ollama for a JSON schema with the count, Anthropic for plain text",
            arguments: httpProviders
        )
        func structuredOutputIsRequested(provider: String) async throws {
            try await withStubLLM { stub in
                try await withService(chainEnvironment((stub, provider))) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    let body = await stub.state.lastRequestBody
                    switch provider {
                    case "openai":
                        #expect(body.contains(#""grammar":"root ::= item item item item item item item item"#), "\(body)")
                        #expect(!body.contains("response_format"))
                    case "ollama":
                        #expect(body.contains(#""format":{"#), "\(body)")
                        #expect(body.contains(#""maxItems":8"#) && body.contains(#""minItems":8"#) && !body.contains("pattern"), "\(body)")
                    default:
                        #expect(!body.contains("response_format") && !body.contains(#""format""#), "\(body)")
                    }
                }
            }
        }

        @Test(
            "A server that refuses structured output is asked again in plain text within the same request, and remembered",
            arguments: ["openai", "ollama"]
        )
        func refusedStructuredOutput(provider: String) async throws {
            try await withStubLLM(.noStructuredOutput) { stub in
                try await withService(chainEnvironment((stub, provider))) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    // A generic OpenAI-compatible server (its model list says so) and Ollama: the JSON schema refused, then
                    // plain text.
                    #expect(await stub.calls == 2)
                    #expect(try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#).source == .model)
                    #expect(await stub.calls == 3, "no second refusal")
                }
            }
        }

        @Test("An OpenAI-compatible server that is not llama.cpp's is asked for the JSON schema from its first call, and asked what it is once")
        func genericServerGetsTheSchema() async throws {
            // `.noGrammar` answers a grammar with a 400, as OpenAI does: one refusal would show as a second call.
            try await withStubLLM(.noGrammar) { stub in
                try await withService(chainEnvironment((stub, "openai"))) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    #expect(await stub.calls == 1, "no call wasted on a grammar")
                    let body = await stub.state.lastRequestBody
                    #expect(
                        body.contains(#""response_format":{"#) && body.contains(#""type":"json_schema""#) && body.contains(#""strict":true"#),
                        "\(body)"
                    )
                    #expect(body.contains(#""minItems":8"#) && body.contains(#""minLength":24"#) && body.contains(#""maxLength":120"#), "\(body)")
                    #expect(!body.contains("grammar") && !body.contains("pattern") && !body.contains("dry_multiplier"))
                    #expect(try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#).source == .model)
                    #expect(await stub.calls == 2)
                    #expect(await stub.state.modelListRequests == 1, "what the server is, read once")
                }
            }
        }

        @Test("A server that ignores unknown fields and is not llama.cpp's still gets the JSON schema it honours, not a grammar")
        func ignoringServerGetsTheSchema() async throws {
            // vLLM and LM Studio answer 200 to a `grammar` they do not know: no refusal would ever step down.
            try await withStubLLM { stub in
                await stub.state.set(serverOwner: "vllm")
                try await withService(chainEnvironment((stub, "openai"))) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    let body = await stub.state.lastRequestBody
                    #expect(body.contains(#""response_format":{"#), "\(body)")
                    #expect(!body.contains("grammar"), "\(body)")
                }
            }
        }

        @Test("An explicit grammar or JSON schema is sent as set, whatever the server says it is", arguments: ["grammar", "json_schema"])
        func explicitStructuredOutput(setting: String) async throws {
            try await withStubLLM { stub in
                await stub.state.set(serverOwner: setting == "grammar" ? "vllm" : "llamacpp")
                var environment = chainEnvironment((stub, "openai"))
                environment["LLM_STRUCTURED_OUTPUT"] = setting
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    let body = await stub.state.lastRequestBody
                    #expect(body.contains(#""grammar":"#) == (setting == "grammar"), "\(body)")
                    #expect(body.contains(#""response_format":"#) == (setting == "json_schema"), "\(body)")
                    #expect(await stub.state.modelListRequests == 0, "an explicit choice asks nothing")
                }
            }
        }

        @Test("A reasoning model that refuses max_tokens and temperature gets model prompts on its first request, then one call each")
        func reasoningModel() async throws {
            try await withStubLLM(.reasoningModel) { stub in
                var environment = chainEnvironment((stub, "openai"))
                environment["LLM_TIMEOUT"] = "2"
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    #expect(await stub.calls == 3, "refused max_tokens, then temperature, then answered")
                    #expect(try await client.startSession(#"{"photo": {"labels": ["kite"]}}"#).source == .model)
                    #expect(await stub.calls == 4)
                    let body = await stub.state.lastRequestBody
                    #expect(
                        body.contains(#""max_completion_tokens":\#(8 * (15 * 2 + 4))"#) && !body.contains("temperature")
                            && !body.contains(#""max_tokens""#)
                    )
                }
            }
        }

        @Test("Explicit settings spare a known reasoning model the first refusals")
        func explicitSettings() async throws {
            try await withStubLLM(.reasoningModel) { stub in
                var environment = chainEnvironment((stub, "openai"))
                environment["LLM_MAX_TOKENS_PARAMETER"] = "max_completion_tokens"
                environment["LLM_SEND_TEMPERATURE"] = "off"
                environment["LLM_STRUCTURED_OUTPUT"] = "off"
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    #expect(await stub.calls == 1)
                    #expect(!(await stub.state.lastRequestBody).contains("response_format"))
                }
            }
        }

        @Test("A template that sets no temperature sends none", arguments: httpProviders)
        func noTemperature(provider: String) async throws {
            try await withStubLLM { stub in
                let prompts = try TemporaryPrompts()
                let path = "photo-journal/settings.json"
                try prompts.write(path, try prompts.read(path).replacing(#""temperature": 0.3,"#, with: ""))
                let environment = operatorEnvironment(stub: nil, prompts: prompts).merging(stub.backendEnvironment(provider: provider)) { $1 }
                try await withService(environment) { (client: ServiceClient) async throws in
                    #expect(try await client.startSession().source == .model)
                    #expect(!(await stub.state.lastRequestBody).contains("temperature"))
                }
            }
        }
    }
}
