import PromptBackends
import PromptTemplates

extension RequestPlan {
    /// The model call of round `round`, exactly as a backend is sent it: the rendered messages (told to avoid
    /// `avoid`), the template's parameters and what the reply is held to. The generator, the admin render and
    /// `photo-prompts render` all take it from here, so an operator's preview is the request, token limit included.
    public func modelRequest(round: Int, avoiding avoid: [String]) -> LLMRequest {
        LLMRequest(prompt: messages(round: round, avoiding: avoid), parameters: parameters, constraint: constraint, templateVersion: template.label)
    }
}
