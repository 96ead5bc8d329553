import Configuration
import PromptBackends
import PromptDomain

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

    public static let maximumCount = 4

    /// `LLM_PROVIDER`: which API.
    public var provider: Provider
    /// `LLM_BASE_URL`: where it is.
    public var baseURL: String?
    /// `LLM_MODEL`: the model name sent.
    public var model: String?
    /// `LLM_API_KEY`: a secret, never logged.
    public var apiKey: String?
    /// `LLM_STRUCTURED_OUTPUT`, `LLM_MAX_TOKENS_PARAMETER`, `LLM_SEND_TEMPERATURE`: fixed or learned (`auto`).
    public var options = BackendOptions()
    /// `LLM_LANGUAGES`: the primary language subtags the model writes (`en`); unset, every language.
    public var languages: Set<String>?

    public init(provider: Provider, baseURL: String? = nil, model: String? = nil, apiKey: String? = nil) {
        self.provider = provider
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
    }

    /// The chain: `LLM_*`, then `LLM_2_*` … `LLM_4_*` in order.
    /// - Throws: ``ConfigurationError`` for a backend's key set without its `PROVIDER`, or a backend set while the
    ///   one numbered before it is not: a half-written chain must not start as a shorter one.
    static func chain(reader: ConfigReader) throws(ConfigurationError) -> [BackendConfiguration] {
        var backends = [try BackendConfiguration(reader: reader, prefix: ["llm"])]
        for position in 2...maximumCount {
            let prefix = ["llm", "\(position)"]
            let providerKey = ConfigReader.environmentName(ConfigKey(prefix + ["provider"]))
            guard reader.optionalText(ConfigKey(prefix + ["provider"])) != nil else {
                if let stray = ["baseURL", "model", "apiKey", "structuredOutput", "maxTokensParameter", "sendTemperature", "languages"].first(where: {
                    reader.optionalText(ConfigKey(prefix + [$0]), isSecret: true) != nil
                }) {
                    let strayKey = ConfigReader.environmentName(ConfigKey(prefix + [stray]))
                    throw ConfigurationError(key: providerKey, problem: "must be set when \(strayKey) is set")
                }
                continue
            }
            guard backends.count == position - 1 else {
                let missing = ConfigReader.environmentName(ConfigKey(["llm", "\(backends.count + 1)", "provider"]))
                throw ConfigurationError(key: providerKey, problem: "is set but \(missing) is not; number the backends without gaps")
            }
            backends.append(try BackendConfiguration(reader: reader, prefix: prefix))
        }
        return backends
    }

    /// Reads `prefix.provider`, `prefix.baseURL`, `prefix.model` and `prefix.apiKey`.
    init(reader: ConfigReader, prefix: [String]) throws(ConfigurationError) {
        func key(_ name: String) -> ConfigKey { ConfigKey(prefix + [name]) }
        let providerKey = ConfigReader.environmentName(key("provider"))
        // A numbered backend is read only once its PROVIDER is set: only the primary falls back to the stub.
        provider = try reader.choice(key("provider"), default: .stub)
        baseURL = reader.optionalText(key("baseURL")) ?? provider.defaultBaseURL
        model = reader.optionalText(key("model"))
        apiKey = reader.optionalText(key("apiKey"), isSecret: true)
        options = BackendOptions(
            structuredOutput: try reader.choice(key("structuredOutput"), default: .auto),
            maxTokensParameter: try reader.choice(key("maxTokensParameter"), default: .auto),
            sendTemperature: try reader.choice(key("sendTemperature"), default: .auto)
        )
        languages = try Self.languages(reader, key("languages"))
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

    /// A comma-separated list of primary language subtags at `key` (`en,es`); nil when unset.
    private static func languages(_ reader: ConfigReader, _ key: ConfigKey) throws(ConfigurationError) -> Set<String>? {
        guard let text = reader.optionalText(key) else { return nil }
        let tags = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for tag in tags {
            guard let parsed = LanguageTag(tag), parsed.description == tag, parsed.script == nil, parsed.region == nil else {
                throw ConfigurationError(
                    key: ConfigReader.environmentName(key),
                    problem: "must list primary language subtags such as en,es (got \"\(tag)\")"
                )
            }
        }
        guard !tags.isEmpty else {
            throw ConfigurationError(key: ConfigReader.environmentName(key), problem: "must name at least one language")
        }
        return Set(tags)
    }

    /// "openai/gpt-4o-mini at https://… (key set)", for the start-up log line.
    var summary: String {
        guard provider != .stub else { return "stub" }
        return "\(provider.rawValue)/\(model ?? "-") at \(baseURL ?? "-") (key \(apiKey == nil ? "unset" : "set"))"
    }
}
