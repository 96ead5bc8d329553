import Foundation
import PromptDomain

/// Asks an OpenAI-compatible server what it is, from `GET {base}/models`: llama.cpp's server lists its models as
/// `owned_by: "llamacpp"` and is the one that takes a GBNF `grammar`. Every other server (OpenAI, vLLM, LM Studio,
/// Ollama's `/v1`) is asked for a JSON schema: OpenAI refuses an unknown `grammar` with a 400, and the others ignore
/// it and answer unconstrained.
package enum ModelListProbe {
    /// The strongest output the server at `modelsURL` takes, or nil when it could not be asked within `timeout`
    /// (unreachable, timed out): the caller then asks for a JSON schema this time and probes again next time.
    package static func strongestOutput(
        transport: any HTTPTransport,
        modelsURL: String,
        headers: [(name: String, value: String)],
        timeout: Duration
    ) async -> RequestShape.Choices.Output? {
        let request = HTTPTransportRequest(method: "GET", url: modelsURL, headers: [("Accept", "application/json")] + headers, timeout: timeout)
        guard let response = try? await transport.send(request) else { return nil }
        // A server without a model list (404), or that refuses the key for it, answered: it is not llama.cpp's.
        guard (200..<300).contains(response.status), let list = try? SnakeCaseJSON.decoder.decode(ModelList.self, from: Data(response.body)) else {
            return .jsonSchema
        }
        return list.data.contains { $0.ownedBy == "llamacpp" } ? .grammar : .jsonSchema
    }

    /// `{"data": [{"id": "…", "owned_by": "…"}]}`, the fields read of OpenAI's model list.
    private struct ModelList: Decodable {
        struct Model: Decodable {
            var ownedBy: String?
        }
        var data: [Model]
    }
}
