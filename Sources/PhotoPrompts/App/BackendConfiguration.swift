import Configuration

/// One backend of the chain, read from `LLM_*` (the first) or `LLM_2_*` … `LLM_4_*`.
public struct BackendConfiguration: Sendable, Equatable {
    /// Which API a backend speaks.
    public enum Provider: String, Sendable, CaseIterable {
        /// The in-process stub: offline, deterministic.
        case stub
        /// An OpenAI-compatible Chat Completions endpoint (OpenAI, vLLM, llama.cpp, LM Studio, Ollama's /v1).
        case openai
        /// Anthropic's Messages API.
        case anthropic
        /// Ollama's native /api/chat.
        case ollama

        /// The base URL used when none is configured, where the provider has a well-known one.
        var defaultBaseURL: String? {
            switch self {
            case .anthropic: "https://api.anthropic.com"
            case .ollama: "http://127.0.0.1:11434"
            case .stub, .openai: nil
            }
        }
    }

    /// The most backends a chain may have.
    public static let maximumCount = 4

    /// `LLM_PROVIDER`: which API.
    public var provider: Provider
    /// `LLM_BASE_URL`: where it is.
    public var baseURL: String?
    /// `LLM_MODEL`: the model name sent.
    public var model: String?
    /// `LLM_API_KEY`: a secret, never logged.
    public var apiKey: String?

    /// Creates a configuration directly.
    public init(provider: Provider, baseURL: String? = nil, model: String? = nil, apiKey: String? = nil) {
        self.provider = provider
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
    }

    /// Reads `prefix.provider`, `prefix.baseURL`, `prefix.model` and `prefix.apiKey`.
    init(reader: ConfigReader, prefix: [String], isPrimary: Bool) throws(ConfigurationError) {
        func key(_ name: String) -> ConfigKey { ConfigKey(prefix + [name]) }
        let providerKey = ConfigReader.environmentName(key("provider"))
        let providerName = reader.text(key("provider"), default: isPrimary ? Provider.stub.rawValue : "")
        guard let provider = Provider(rawValue: providerName.lowercased()) else {
            let names = Provider.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(key: providerKey, problem: "must be one of \(names) (got \"\(providerName)\")")
        }
        self.provider = provider
        baseURL = reader.optionalText(key("baseURL")) ?? provider.defaultBaseURL
        model = reader.optionalText(key("model"))
        apiKey = reader.optionalText(key("apiKey"), isSecret: true)
        guard provider != .stub else { return }
        let baseURLKey = ConfigReader.environmentName(key("baseURL"))
        guard let baseURL else {
            throw ConfigurationError(key: baseURLKey, problem: "must be set when \(providerKey) is \(provider.rawValue)")
        }
        guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") else {
            throw ConfigurationError(key: baseURLKey, problem: "must start with http:// or https:// (got \"\(baseURL)\")")
        }
        guard model != nil else {
            throw ConfigurationError(
                key: ConfigReader.environmentName(key("model")),
                problem: "must be set when \(providerKey) is \(provider.rawValue)"
            )
        }
    }

    /// "openai/gpt-4o-mini at https://… (key set)", for the start-up log line.
    var summary: String {
        guard provider != .stub else { return "stub" }
        return "\(provider.rawValue)/\(model ?? "-") at \(baseURL ?? "-") (key \(apiKey == nil ? "unset" : "set"))"
    }
}
