import Configuration
import Logging
import PromptStores
import PromptTemplates

/// Every setting of the service, read once at start-up: environment variables over `config/photo-prompts.json`
/// over these defaults. The README's table lists the same keys.
public struct AppConfiguration: Sendable {
    /// `HTTP_HOST`: the address to listen on.
    public var host: String
    /// `HTTP_PORT`: the port to listen on; 0 picks a free one.
    public var port: Int
    /// `HTTP_READ_TIMEOUT`: seconds a request's body may take to arrive; then 408.
    public var readTimeout: Double
    /// `HTTP_IDLE_TIMEOUT`: seconds a keep-alive connection may sit idle before it is closed.
    public var idleTimeout: Double
    /// `STREAM_KEEPALIVE`: seconds between comment lines on a streamed answer while no event is due.
    public var streamKeepAlive: Double
    /// `HTTP_MAX_CONNECTIONS`: connections served at once; one more is answered 503 and closed.
    public var maxConnections: Int
    /// `DATABASE_PATH`: the SQLite file, used unless `DATABASE_URL` names a PostgreSQL server.
    public var databasePath: String
    /// `DATABASE_URL`: a PostgreSQL shared between instances; a secret, logged only as ``PostgresURL/redacted``.
    public var databaseURL: PostgresURL?
    /// `DATABASE_POOL_SIZE`: connections this instance may open to PostgreSQL.
    public var databasePoolSize: Int
    /// The backends in order of preference: `LLM_*` first, then `LLM_2_*`, `LLM_3_*`, `LLM_4_*` when set.
    public var backends: [BackendConfiguration]
    /// The primary language subtags some backend writes (`LLM_LANGUAGES`); nil when one of them writes every language.
    public var writtenLanguages: Set<String>? {
        var written = Set<String>()
        for backend in backends {
            guard let languages = backend.languages else { return nil }
            written.formUnion(languages)
        }
        return written
    }
    /// `BREAKER_FAILURES`: consecutive failures that open a backend's circuit breaker.
    public var breakerFailures: Int
    /// `BREAKER_COOLDOWN`: seconds an open breaker waits before letting one probe through.
    public var breakerCoolDown: Double
    /// `BACKEND_RETRY_AFTER_MAX`: the longest a backend's `Retry-After` keeps calls away from it, in seconds.
    public var backendRetryAfterMax: Double
    /// `LLM_TIMEOUT`: the total budget of one backend call, in seconds.
    public var timeout: Double
    /// `PROMPTS_DIRECTORY`: where templates and fallbacks live.
    public var promptsDirectory: String
    /// `PROMPTS_TEMPLATE`: the template to render.
    public var templateName: String
    /// `PROMPTS_WATCH_INTERVAL`: seconds between checks of `prompts/` for edits; 0 turns watching off.
    public var watchInterval: Double
    /// `ADMIN_API_KEY`: the bearer key for `/admin`; without it `/admin` does not exist (404). A secret, never logged.
    public var adminAPIKey: String?
    /// `CONSOLE_DIRECTORY`: the operators' console's page, script and style (`/admin/console`).
    public var consoleDirectory: String
    /// `CONSOLE_CHART_JS`: Chart.js as Debian's `libjs-chart.js` installs it, served to the console's page.
    public var consoleChartLibrary: String
    /// `STATS_FLUSH_INTERVAL`: seconds between writes of the template stats counted in memory.
    public var statsFlushInterval: Double
    /// `RATE_LIMIT_PER_USER`: prompt requests a minute per user (0 = no limit).
    public var rateLimitPerUser: Int
    /// `RATE_LIMIT_PER_KEY`: prompt requests a minute per client key (0 = no limit).
    public var rateLimitPerKey: Int
    /// `BACKEND_MAX_IN_FLIGHT`: backend calls at once; beyond it, answers fall back as `unavailable` at once.
    public var backendMaxInFlight: Int
    /// `API_KEYS`: the client keys, as `name:sha256hex` pairs. Without any, the service is open and loopback-only.
    public var clientKeys: ClientKeys
    /// `SESSIONS_REFRESH_LIMIT`: refreshes allowed per session.
    public var refreshLimit: Int
    /// `SESSIONS_TTL`: seconds a session answers.
    public var sessionTTL: Double
    /// `PROMPT_HISTORY_DAYS`: days a user's prompts are remembered so they are not shown to them again; 0 keeps none.
    public var promptHistoryDays: Double
    /// `CACHE_TTL`: seconds a cached answer is served.
    public var cacheTTL: Double
    /// `STORE_PRUNE_INTERVAL`: seconds between sweeps of expired sessions and cache entries.
    public var pruneInterval: Double
    /// `LOG_LEVEL`: trace, debug, info, notice, warning, error or critical.
    public var logLevel: Logger.Level
    /// `LOG_FORMAT`: text, json or logfmt.
    public var logFormat: LogFormat

    /// - Throws: ``ConfigurationError`` naming the first key whose value is unusable.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        host = reader.text("http.host", default: "127.0.0.1")
        port = try reader.integer("http.port", default: 8080, in: 0...65535)
        readTimeout = try reader.seconds("http.readTimeout", default: 30, maximum: 3600)
        idleTimeout = try reader.seconds("http.idleTimeout", default: 60, maximum: 86_400)
        streamKeepAlive = try reader.seconds("stream.keepalive", default: 5, maximum: 60)
        maxConnections = try reader.integer("http.maxConnections", default: 4096, in: 1...1_000_000)
        databasePath = reader.text("database.path", default: "data/photo-prompts.sqlite")
        databaseURL = try Self.databaseURL(reader)
        databasePoolSize = try reader.integer("database.poolSize", default: 20, in: 1...1000)
        self.backends = try BackendConfiguration.chain(reader: reader)
        breakerFailures = try reader.integer("breaker.failures", default: 5, in: 1...1000)
        breakerCoolDown = try reader.seconds("breaker.cooldown", default: 30, maximum: 86_400)
        backendRetryAfterMax = try reader.seconds("backend.retryAfterMax", default: 120, maximum: 86_400)
        timeout = try reader.seconds("llm.timeout", default: 15, maximum: 600)
        promptsDirectory = reader.text("prompts.directory", default: "prompts")
        templateName = reader.text("prompts.template", default: "photo-journal")
        guard PromptTemplate.isValidName(templateName) else {
            throw ConfigurationError(
                key: "PROMPTS_TEMPLATE",
                problem: "must be a folder name of letters, digits, '-' and '_' (got \"\(templateName)\")"
            )
        }
        watchInterval =
            reader.optionalText("prompts.watchInterval")?.trimmingCharacters(in: .whitespaces) == "0"
            ? 0 : try reader.seconds("prompts.watchInterval", default: 2, maximum: 3600)
        consoleDirectory = reader.text("console.directory", default: "console")
        consoleChartLibrary = reader.text("console.chartJS", default: "/usr/share/javascript/chart.js/chart.min.js")
        adminAPIKey = reader.optionalText("admin.apiKey", isSecret: true)
        if let adminAPIKey, adminAPIKey.count < 16 {
            throw ConfigurationError(key: "ADMIN_API_KEY", problem: "must be at least 16 characters (got \(adminAPIKey.count))")
        }
        statsFlushInterval = try reader.seconds("stats.flushInterval", default: 10, maximum: 3600)
        rateLimitPerUser = try reader.integer("rateLimit.perUser", default: 30, in: 0...100_000)
        rateLimitPerKey = try reader.integer("rateLimit.perKey", default: 6000, in: 0...10_000_000)
        backendMaxInFlight = try reader.integer("backend.maxInFlight", default: 1024, in: 1...100_000)
        clientKeys = try ClientKeys.parse(reader.optionalText("api.keys") ?? "")
        // Keys mean real clients: one forgotten line must not serve them the stub's canned questions.
        if !clientKeys.isEmpty, reader.optionalText("llm.provider") == nil {
            throw ConfigurationError(
                key: "LLM_PROVIDER",
                problem:
                    "must be set when API_KEYS is: set a real provider (openai, anthropic, ollama), or LLM_PROVIDER=stub to serve the stub on purpose"
            )
        }
        if clientKeys.isEmpty, !Self.isLoopback(host) {
            throw ConfigurationError(
                key: "HTTP_HOST",
                problem: "is \(host), but with no API_KEYS the service is open to anyone and listens on loopback only (127.0.0.1 or ::1)"
            )
        }
        refreshLimit = try reader.integer("sessions.refreshLimit", default: 5, in: 0...1000)
        sessionTTL = try reader.seconds("sessions.ttl", default: 86_400, maximum: 31_536_000)
        promptHistoryDays = Double(try reader.integer("prompt.historyDays", default: 30, in: 0...3650))
        cacheTTL = try reader.seconds("cache.ttl", default: 604_800, maximum: 31_536_000)
        pruneInterval = try reader.seconds("store.pruneInterval", default: 600, maximum: 86_400)
        logLevel = try reader.choice("log.level", default: .info)
        logFormat = try reader.choice("log.format", default: .text)
    }

    /// `DATABASE_URL`, when set: PostgreSQL shared by instances.
    private static func databaseURL(_ reader: ConfigReader) throws(ConfigurationError) -> PostgresURL? {
        guard let url = reader.optionalText("database.url", isSecret: true), !url.isEmpty else { return nil }
        guard let parsed = PostgresURL(url) else {
            throw ConfigurationError(
                key: "DATABASE_URL",
                problem: "must look like postgres://user:password@host:5432/database, optionally with ?sslmode=disable|prefer|require"
            )
        }
        return parsed
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The settings worth logging at start-up; API keys appear only as set or unset.
    public var loggableSummary: Logger.Metadata {
        [
            "host": "\(host)", "port": "\(port)", "database": "\(databaseURL?.redacted ?? databasePath)",
            "backends": "\(backends.map(\.summary).joined(separator: " then "))", "timeout_s": "\(timeout)",
            "template": "\(promptsDirectory)/\(templateName)", "refresh_limit": "\(refreshLimit)",
            "admin": "\(adminAPIKey == nil ? "disabled" : "enabled")",
            "clients": "\(clientKeys.isEmpty ? "open (no API_KEYS), loopback only" : clientKeys.names.joined(separator: ","))",
        ]
    }
}
