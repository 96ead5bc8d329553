import Configuration
import Logging

/// Every setting of the service, read once at start-up: environment variables over `config/photo-prompts.json`
/// over these defaults. The README's table lists the same keys.
public struct AppConfiguration: Sendable {
    /// Which model backend answers.
    public enum Provider: String, Sendable, CaseIterable {
        /// The in-process stub: offline, deterministic.
        case stub
        /// An OpenAI-compatible Chat Completions endpoint.
        case openai
    }

    /// `HTTP_HOST`: the address to listen on.
    public var host: String
    /// `HTTP_PORT`: the port to listen on; 0 picks a free one.
    public var port: Int
    /// `DATABASE_PATH`: the SQLite file.
    public var databasePath: String
    /// `LLM_PROVIDER`: `stub` or `openai`.
    public var provider: Provider
    /// `LLM_BASE_URL`: the OpenAI-compatible base URL, e.g. `http://127.0.0.1:11434/v1`.
    public var baseURL: String?
    /// `LLM_MODEL`: the model name sent to the backend.
    public var model: String?
    /// `LLM_API_KEY`: sent as a Bearer token. A secret: never logged.
    public var apiKey: String?
    /// `LLM_TIMEOUT`: the total budget of one backend call, in seconds.
    public var timeout: Double
    /// `PROMPTS_DIRECTORY`: where templates and fallbacks live.
    public var promptsDirectory: String
    /// `PROMPTS_TEMPLATE`: the template to render.
    public var templateName: String
    /// `SESSIONS_REFRESH_LIMIT`: refreshes allowed per session.
    public var refreshLimit: Int
    /// `SESSIONS_TTL`: seconds a session answers.
    public var sessionTTL: Double
    /// `CACHE_TTL`: seconds a cached answer is served.
    public var cacheTTL: Double
    /// `STORE_PRUNE_INTERVAL`: seconds between sweeps of expired sessions and cache entries.
    public var pruneInterval: Double
    /// `LOG_LEVEL`: trace, debug, info, notice, warning, error or critical.
    public var logLevel: Logger.Level

    /// Reads and checks every key.
    ///
    /// - Throws: ``ConfigurationError`` naming the first key whose value is unusable.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        host = reader.text("http.host", default: "127.0.0.1")
        port = try reader.integer("http.port", default: 8080, in: 0...65535)
        databasePath = reader.text("database.path", default: "data/photo-prompts.sqlite")
        let providerName = reader.text("llm.provider", default: Provider.stub.rawValue)
        guard let provider = Provider(rawValue: providerName.lowercased()) else {
            let names = Provider.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(key: "LLM_PROVIDER", problem: "must be one of \(names) (got \"\(providerName)\")")
        }
        self.provider = provider
        baseURL = reader.optionalText("llm.baseURL")
        model = reader.optionalText("llm.model")
        apiKey = reader.optionalText("llm.apiKey", isSecret: true)
        timeout = try reader.seconds("llm.timeout", default: 15, maximum: 600)
        promptsDirectory = reader.text("prompts.directory", default: "prompts")
        templateName = reader.text("prompts.template", default: "photo-journal")
        refreshLimit = try reader.integer("sessions.refreshLimit", default: 5, in: 0...1000)
        sessionTTL = try reader.seconds("sessions.ttl", default: 86_400, maximum: 31_536_000)
        cacheTTL = try reader.seconds("cache.ttl", default: 604_800, maximum: 31_536_000)
        pruneInterval = try reader.seconds("store.pruneInterval", default: 600, maximum: 86_400)
        let levelName = reader.text("log.level", default: "info")
        guard let logLevel = Logger.Level(rawValue: levelName.lowercased()) else {
            throw ConfigurationError(key: "LOG_LEVEL", problem: "must be one of trace, debug, info, notice, warning, error, critical (got \"\(levelName)\")")
        }
        self.logLevel = logLevel
        try checkBackend()
    }

    private func checkBackend() throws(ConfigurationError) {
        guard provider == .openai else { return }
        guard let baseURL else {
            throw ConfigurationError(key: "LLM_BASE_URL", problem: "must be set when LLM_PROVIDER is openai")
        }
        guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") else {
            throw ConfigurationError(key: "LLM_BASE_URL", problem: "must start with http:// or https:// (got \"\(baseURL)\")")
        }
        guard model != nil else {
            throw ConfigurationError(key: "LLM_MODEL", problem: "must be set when LLM_PROVIDER is openai")
        }
    }

    /// The settings worth logging at start-up; the API key appears only as set or unset.
    public var loggableSummary: Logger.Metadata {
        [
            "host": "\(host)", "port": "\(port)", "database": "\(databasePath)", "provider": "\(provider.rawValue)",
            "base_url": "\(baseURL ?? "-")", "model": "\(model ?? "-")", "api_key": "\(apiKey == nil ? "unset" : "set")",
            "timeout_s": "\(timeout)", "template": "\(promptsDirectory)/\(templateName)", "refresh_limit": "\(refreshLimit)",
        ]
    }
}
