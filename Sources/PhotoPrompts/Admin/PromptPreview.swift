import Foundation
import PromptDomain
import PromptTemplates

/// What operators see with `photo-prompts render`: exactly what a first request sends to the model.
public enum PromptPreview {
    /// Reads a photo file: a request body (`{"photo": {...}}`) or a bare photo object, validated like the API does.
    /// - Throws: ``APIError`` naming the field at fault.
    public static func request(fromJSON data: Data) throws -> ValidatedPromptRequest {
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        let body = object?["photo"] == nil ? try JSONSerialization.data(withJSONObject: ["photo": object ?? [:]]) : data
        do {
            return try SnakeCaseJSON.decoder.decode(PromptRequest.self, from: body).validated()
        } catch let error as DecodingError {
            throw JSONRequestDecoder.describe(error)
        }
    }

    /// The template's identity and parameters, then the system and user messages, as sent on a first request, and the
    /// grammar a llama.cpp server is asked to hold the reply to: the admin render's answer (``RenderResponse``), as text.
    public static func text(template: PromptTemplate, request: ValidatedPromptRequest, copy: CopyCatalog) -> String {
        let sent = RenderResponse(template: template, request: request, copy: copy, now: Date())
        let temperature = sent.parameters.temperature.map { "\($0)" } ?? "provider default"
        return """
            template: \(sent.template.name) \(sent.template.version)
            parameters: temperature \(temperature), max_tokens \(sent.parameters.maxTokens), candidates \(sent.parameters.candidateCount)

            --- system ---
            \(sent.system)

            --- user ---
            \(sent.user)

            --- the template's own fallbacks usable for this photo (\(sent.fallbacks.count)) ---
            \(sent.fallbacks.joined(separator: "\n"))

            --- the grammar (LLM_STRUCTURED_OUTPUT=grammar, llama.cpp) ---
            \(sent.grammar)

            """
    }
}
