/// How the stub model answers: well, badly, or not at all.
public enum StubBehaviour: String, Codable, Sendable, CaseIterable {
    /// Six photo-aware questions of 8–15 words, one per line.
    case normal
    /// Questions of 2–5 words only.
    case short
    /// Questions of 20 words or more only.
    case long
    /// Two good questions, two too short, two too long.
    case mixed
    /// Good questions as a numbered list: "1. …".
    case numbered
    /// Good questions as a bulleted list: "- …", "• …".
    case bulleted
    /// Good questions as a JSON array of strings.
    case jsonArray = "json_array"
    /// "Here are six questions:", then a ```json fenced array (GPT, Llama).
    case fencedWithPreamble = "fenced_with_preamble"
    /// A fenced array, then "I hope these help!" (Claude, Gemma).
    case fencedWithSignOff = "fenced_with_sign_off"
    /// `1. **What …?**`: bold, numbered, between a preamble and a sign-off (Llama, Mistral).
    case boldNumbered = "bold_numbered"
    /// `*What …?*`: italic lines (Gemma).
    case italicLines = "italic_lines"
    /// `{"journal_prompts": […]}`: the list under a key of the model's own.
    case jsonOtherKey = "json_other_key"
    /// `[{"question": "…"}, …]`: an array of objects.
    case jsonObjects = "json_objects"
    /// Two good questions, each three times with different case and punctuation.
    case duplicates
    /// The user message echoed back line by line, as a model that obeys instructions hidden in the data would.
    case echo
    /// No text, stopped at the token limit: a reasoning model that spent its budget thinking.
    case reasoningEmpty = "reasoning_empty"
    /// Six good numbered questions and a seventh cut off mid-line, stopped at the token limit.
    case cutAtLength = "cut_at_length"
    /// HTTP 400 naming a refused parameter, as OpenAI's reasoning models answer `max_tokens`.
    case badRequest = "bad_request"
    /// An OpenAI reasoning model: 400 for `max_tokens` (use `max_completion_tokens`) and for any `temperature`.
    case reasoningModel = "reasoning_model"
    /// A server without structured output: 400 for `response_format` (or Ollama's `format`).
    case noStructuredOutput = "no_structured_output"
    /// An OpenAI-compatible server that is not llama.cpp's: 400 for `grammar`, as OpenAI answers an unknown argument.
    case noGrammar = "no_grammar"
    /// HTTP 401 with a message that echoes the key the request carried (or a made-up one when it carried none).
    case unauthorized
    /// HTTP 500.
    case serverError = "error_500"
    /// HTTP 429 with `Retry-After`.
    case rateLimited = "rate_limited"
    /// HTTP 200 with a body that is not JSON.
    case garbage
    /// HTTP 200 with a chat completion cut off mid-JSON.
    case truncated
    /// Accepts the request, then never answers.
    case hang
    /// HTTP 200, then the body one byte at a time, slowly.
    case trickle

    /// The `owned_by` of the stub's model list: llama.cpp's (it takes `grammar`) unless the stub plays another server.
    public var serverOwner: String {
        switch self {
        case .noGrammar, .noStructuredOutput: "organization-owner"
        default: "llamacpp"
        }
    }
}
