import Foundation
import PromptDomain
import PromptTemplates

/// What operators see with `photo-prompts render`: exactly what a first request sends to the model.
public enum PromptPreview {
    /// Reads a photo file: a request body (`{"photo": {...}}`) or a bare photo object, validated like the API does.
    ///
    /// - Throws: ``APIError`` naming the field at fault.
    public static func request(fromJSON data: Data) throws -> ValidatedPromptRequest {
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        let body = object?["photo"] == nil ? try JSONSerialization.data(withJSONObject: ["photo": object ?? [:]]) : data
        do {
            return try JSONDecoder().decode(PromptRequest.self, from: body).validated()
        } catch let error as DecodingError {
            throw JSONRequestDecoder.describe(error)
        }
    }

    /// The template's identity and settings, then the system and user messages, as sent on a first request, and the
    /// grammar a llama.cpp server is asked to hold the reply to.
    public static func text(template: PromptTemplate, request: ValidatedPromptRequest) -> String {
        let settings = template.settings
        let context = TemplateContext(photo: request.photo, locale: request.locale, candidateCount: settings.candidateCount)
        let rendered = template.render(context)
        let fallbacks = template.fallbacks.usable(for: context, validator: template.validator(for: .english))
        let temperature = settings.parameters.temperature.map { "\($0)" } ?? "provider default"
        let language = request.locale
        return """
            template: \(template.identity.name) \(template.identity.version)
            parameters: temperature \(temperature), max_tokens \(template.maxTokens(for: language)), candidates \(settings.candidateCount)

            --- system ---
            \(rendered.system)

            --- user ---
            \(rendered.user)

            --- the template's own fallbacks usable for this photo (\(fallbacks.count)) ---
            \(fallbacks.joined(separator: "\n"))

            --- the grammar (LLM_STRUCTURED_OUTPUT=grammar, llama.cpp) ---
            \(template.grammar(for: language))

            """
    }
}
