import PromptDomain

/// What a backend is asked: instructions, a conversation, and the model parameters from the template's settings.
public struct LLMRequest: Sendable {
    /// One turn of the conversation after the system instructions, as every provider's request writes it.
    public struct Message: Sendable, Equatable, Encodable {
        /// `user` or `assistant`.
        public var role: String
        public var content: String

        public init(role: String, content: String) {
            self.role = role
            self.content = content
        }
    }

    public var system: String
    /// The conversation: the rendered user part, then, on a re-ask, the model's reply and the feedback on it.
    public var messages: [Message]
    public var parameters: ModelParameters
    /// What the reply must be, for a backend that can constrain decoding to it; nil asks for free text.
    public var constraint: OutputConstraint?
    /// The template version that rendered it, named on the model call's span.
    public var templateVersion: String?
    /// `traceparent` and `tracestate` for the provider, written by the chain for each call: the call's span, or
    /// the caller's trace passed through when no trace is exported.
    public var traceHeaders: [String: String] = [:]
    /// Sees the reply while the model writes it, for a request whose client streams: a backend that can stream asks
    /// its provider to and hands it each piece; without one, it asks for the whole reply.
    public var observer: (any ReplyObserver)?

    /// A first request: the rendered template as system and user messages.
    public init(prompt: RenderedPrompt, parameters: ModelParameters, constraint: OutputConstraint? = nil, templateVersion: String? = nil) {
        self.templateVersion = templateVersion
        self.system = prompt.system
        self.messages = [Message(role: "user", content: prompt.user)]
        self.parameters = parameters
        self.constraint = constraint
    }

    /// The token limit sent (``ModelParameters/tokenLimit(for:)``).
    public var maxTokens: Int { parameters.tokenLimit(for: constraint) }

    /// ``traceHeaders`` as the fields a backend sends, in a stable order.
    public var traceFields: [(name: String, value: String)] {
        traceHeaders.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// Every user message, joined: the metadata and, on a re-ask, the feedback.
    public var userText: String { messages.filter { $0.role == "user" }.map(\.content).joined(separator: "\n") }
}
