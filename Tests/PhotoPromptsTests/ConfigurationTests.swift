import Configuration
import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptStores
import Testing

@Suite("Configuration: environment over file over defaults, and bad values named")
struct ConfigurationTests {
    @Test("Defaults match the table in docs/CONFIGURATION.md")
    func defaults() throws {
        let config = try configuration([:])
        #expect(config.host == "127.0.0.1")
        #expect(config.port == 8080)
        #expect(config.databasePath == "data/photo-prompts.sqlite")
        #expect(config.backends == [BackendConfiguration(provider: .stub)])
        #expect(config.breakerFailures == 5)
        #expect(config.breakerCoolDown == 30)
        #expect(config.timeout == 15)
        #expect(config.promptsDirectory == "prompts")
        #expect(config.templateName == "photo-journal")
        #expect(config.refreshLimit == 5)
        #expect(config.sessionTTL == 86_400)
        #expect(config.cacheTTL == 604_800)
    }

    @Test("Environment variables set every key")
    func environment() throws {
        let config = try configuration([
            "HTTP_HOST": "0.0.0.0", "HTTP_PORT": "9000", "DATABASE_PATH": "/tmp/x.sqlite", "LLM_PROVIDER": "openai",
            "LLM_BASE_URL": "http://127.0.0.1:11434/v1", "LLM_MODEL": "llama3.2", "LLM_API_KEY": "sk-test", "LLM_TIMEOUT": "2.5",
            "PROMPTS_DIRECTORY": "/etc/prompts", "PROMPTS_TEMPLATE": "other", "SESSIONS_REFRESH_LIMIT": "3", "SESSIONS_TTL": "60",
            "CACHE_TTL": "120", "LOG_LEVEL": "debug", "PROMPTS_WATCH_INTERVAL": "0", "ADMIN_API_KEY": "admin-key-0123456789",
            "STATS_FLUSH_INTERVAL": "30", "API_KEYS": ClientKeys.generate(name: "ios").entry,
        ])
        #expect(config.host == "0.0.0.0")
        #expect(config.port == 9000)
        #expect(config.databasePath == "/tmp/x.sqlite")
        #expect(
            config.backends == [BackendConfiguration(provider: .openai, baseURL: "http://127.0.0.1:11434/v1", model: "llama3.2", apiKey: "sk-test")]
        )
        #expect(config.timeout == 2.5)
        #expect(config.promptsDirectory == "/etc/prompts")
        #expect(config.templateName == "other")
        #expect(config.refreshLimit == 3)
        #expect(config.sessionTTL == 60)
        #expect(config.cacheTTL == 120)
        #expect(config.logLevel == .debug)
        #expect(config.watchInterval == 0)
        #expect(config.adminAPIKey == "admin-key-0123456789")
        #expect(config.statsFlushInterval == 30)
        #expect(config.clientKeys.names == ["ios"])
    }

    @Test("LLM_2_* … LLM_4_* add backends to the chain, in order, with provider defaults for base URLs")
    func chain() throws {
        let config = try configuration([
            "LLM_PROVIDER": "anthropic", "LLM_MODEL": "claude-haiku", "LLM_API_KEY": "k1",
            "LLM_2_PROVIDER": "ollama", "LLM_2_MODEL": "llama3.2",
            "LLM_3_PROVIDER": "openai", "LLM_3_BASE_URL": "http://127.0.0.1:8000/v1", "LLM_3_MODEL": "qwen", "LLM_3_API_KEY": "k4",
        ])
        #expect(
            config.backends == [
                BackendConfiguration(provider: .anthropic, baseURL: "https://api.anthropic.com", model: "claude-haiku", apiKey: "k1"),
                BackendConfiguration(provider: .ollama, baseURL: "http://127.0.0.1:11434", model: "llama3.2"),
                BackendConfiguration(provider: .openai, baseURL: "http://127.0.0.1:8000/v1", model: "qwen", apiKey: "k4"),
            ]
        )
        let summary = config.loggableSummary.map { "\($0.value)" }.joined()
        #expect(!summary.contains("k1") && !summary.contains("k4"))
    }

    @Test("A JSON file in config/ sets keys, and the environment overrides it")
    func fileUnderEnvironment() async throws {
        let file = scratchPath("config.json")
        let json =
            #"{"http": {"port": 7070, "host": "127.0.0.2"}, "sessions": {"refreshLimit": 4, "ttl": 60}, "llm": {"timeout": 2.5}, "cache": {"ttl": 90}}"#
        try Data(json.utf8).write(to: file)
        let reader = ConfigReader(providers: [
            EnvironmentVariablesProvider(environmentVariables: ["HTTP_PORT": "7171"]),
            try await FileProvider<JSONSnapshot>(filePath: .init(file.path)),
        ])
        let config = try AppConfiguration(reader: reader)
        #expect(config.port == 7171)
        #expect(config.host == "127.0.0.2")
        #expect(config.refreshLimit == 4)
        #expect(config.sessionTTL == 60, "a whole number in JSON is still a number of seconds")
        #expect(config.timeout == 2.5)
        #expect(config.cacheTTL == 90)
    }

    @Test("The shipped config/photo-prompts.json parses and matches the defaults")
    func shippedFile() async throws {
        let path = URL(fileURLWithPath: repositoryPromptsDirectory).deletingLastPathComponent().appendingPathComponent("config/photo-prompts.json")
            .path
        let fromFile = try AppConfiguration(reader: ConfigReader(provider: try await FileProvider<JSONSnapshot>(filePath: .init(path))))
        let defaults = try configuration([:])
        #expect(fromFile.port == defaults.port)
        #expect(fromFile.timeout == defaults.timeout)
        #expect(fromFile.sessionTTL == defaults.sessionTTL)
        #expect(fromFile.refreshLimit == defaults.refreshLimit)
        #expect(fromFile.backends == defaults.backends)
    }

    @Test(
        "A bad value stops start-up with a message naming the key",
        arguments: [
            (["HTTP_PORT": "eighty"], "HTTP_PORT"),
            (["HTTP_PORT": "70000"], "HTTP_PORT"),
            (["LLM_PROVIDER": "skynet"], "LLM_PROVIDER"),
            (["LLM_TIMEOUT": "soon"], "LLM_TIMEOUT"),
            (["LLM_TIMEOUT": "0"], "LLM_TIMEOUT"),
            (["SESSIONS_REFRESH_LIMIT": "-1"], "SESSIONS_REFRESH_LIMIT"),
            (["SESSIONS_TTL": "forever"], "SESSIONS_TTL"),
            (["CACHE_TTL": "-5"], "CACHE_TTL"),
            (["LOG_LEVEL": "loud"], "LOG_LEVEL"),
            (["LLM_PROVIDER": "openai", "LLM_MODEL": "m"], "LLM_BASE_URL"),
            (["LLM_PROVIDER": "openai", "LLM_BASE_URL": "ftp://x", "LLM_MODEL": "m"], "LLM_BASE_URL"),
            (["LLM_PROVIDER": "openai", "LLM_BASE_URL": "http://x"], "LLM_MODEL"),
            (["LLM_2_PROVIDER": "mystery"], "LLM_2_PROVIDER"),
            (["LLM_2_PROVIDER": "anthropic"], "LLM_2_MODEL"),
            (["LLM_2_PROVIDER": "stub", "LLM_3_PROVIDER": "openai", "LLM_3_MODEL": "m"], "LLM_3_BASE_URL"),
            // A half-written chain must not start as a shorter one.
            (["LLM_2_MODEL": "m"], "LLM_2_PROVIDER"),
            (["LLM_3_API_KEY": "k"], "LLM_3_PROVIDER"),
            (["LLM_2_PROVIDER": "stub", "LLM_4_PROVIDER": "stub"], "LLM_4_PROVIDER"),
            (["BREAKER_FAILURES": "0"], "BREAKER_FAILURES"),
            (["BREAKER_COOLDOWN": "never"], "BREAKER_COOLDOWN"),
            (["DATABASE_URL": "mysql://u@db/x"], "DATABASE_URL"),
            (["DATABASE_URL": "postgres://db.internal/x"], "DATABASE_URL"),
            (["DATABASE_URL": "postgres://u@db/x?sslmode=verify-full"], "DATABASE_URL"),
            (["DATABASE_POOL_SIZE": "0"], "DATABASE_POOL_SIZE"),
        ]
    )
    func badValues(environment: [String: String], key: String) {
        #expect {
            _ = try configuration(environment)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.key == key && error.description.hasPrefix("Invalid configuration: \(key) ")
        }
    }

    @Test("DATABASE_URL selects PostgreSQL; its password never reaches the start-up summary")
    func databaseURL() throws {
        let config = try configuration([
            "DATABASE_URL": "postgresql://photo_prompts:pa%24%24word@db.internal:6543/prompts?sslmode=require", "DATABASE_POOL_SIZE": "7",
        ])
        let url = try #require(config.databaseURL)
        #expect(url.host == "db.internal" && url.port == 6543 && url.username == "photo_prompts" && url.database == "prompts")
        #expect(url.password == "pa$$word")
        #expect(url.sslMode == .require)
        #expect(config.databasePoolSize == 7)
        let summary = config.loggableSummary.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        #expect(!summary.contains("pa$$word") && !summary.contains("pa%24%24word"))
        #expect(summary.contains("database=postgres://photo_prompts:***@db.internal:6543/prompts?sslmode=require"))

        let defaults = try #require(PostgresURL("postgres://me@localhost"))
        #expect(defaults.port == 5432 && defaults.database == nil && defaults.password == nil && defaults.sslMode == .prefer)
        #expect(try configuration([:]).databaseURL == nil, "SQLite stays the default")
    }

    @Test("The start-up summary says whether an API key is set, never what it is")
    func secretsAreNotInTheSummary() throws {
        let config = try configuration(["LLM_PROVIDER": "openai", "LLM_BASE_URL": "http://x", "LLM_MODEL": "m", "LLM_API_KEY": "sk-very-secret"])
        let summary = config.loggableSummary.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        #expect(!summary.contains("sk-very-secret"))
        #expect(summary.contains("(key set)"))
    }

    @Test("The languages whose dictionaries open at start-up: every one unless each backend names its LLM_LANGUAGES")
    func writtenLanguages() throws {
        let openAI = ["LLM_PROVIDER": "openai", "LLM_BASE_URL": "http://127.0.0.1:9/v1", "LLM_MODEL": "m"]
        #expect(try configuration(openAI).writtenLanguages == nil)
        #expect(try configuration(openAI.merging(["LLM_LANGUAGES": "en"]) { $1 }).writtenLanguages == ["en"])
        let second = ["LLM_2_PROVIDER": "ollama", "LLM_2_MODEL": "m", "LLM_2_LANGUAGES": "es,pt"]
        #expect(try configuration(openAI.merging(["LLM_LANGUAGES": "en"]) { $1 }.merging(second) { $1 }).writtenLanguages == ["en", "es", "pt"])
        #expect(try configuration(openAI.merging(second) { $1 }).writtenLanguages == nil, "the first backend writes every language")
    }
}
