// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "PhotoPrompts",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "photo-prompts", targets: ["photo-prompts"]),
        .executable(name: "stub-llm", targets: ["stub-llm"]),
        .library(name: "PhotoPrompts", targets: ["PhotoPrompts"]),

    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Hummingbird's own NIO: the server's channel handlers (connection cap, malformed requests) use it directly.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The shared store for several instances (DATABASE_URL=postgres://…); SQLite stays the default.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Property tests of the pure rules (the fast layer only).
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // Traces: spans through the layers (the Tracing API), W3C `traceparent` passed through when export is off,
        // and OTLP export (swift-otel) switched on by the standard OTEL_* variables.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context.git", from: "1.0.0"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0"),
    ],
    targets: [
        // libcurl, as the system library from libcurl4-openssl-dev.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // ICU's word-break iterator (the system's libicu, from libicu-dev), for languages written without spaces
        // between words, its scripts, and its transliterators between Chinese's two scripts. A C target rather than a system-library module: see docs/ARCHITECTURE.md.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icui18n")]
        ),
        // Google's Compact Language Detector 2 (Debian's libcld2-dev), for the gate's language check. CLD2 is C++;
        // one function with plain C types crosses into Swift.
        .target(
            name: "CCLD2",
            linkerSettings: [.linkedLibrary("cld2")]
        ),
        // Hunspell (Debian's libhunspell-dev), for the gate's real-word check, as a system-library module like CCurl.
        .systemLibrary(
            name: "CHunspell",
            pkgConfig: "hunspell",
            providers: [.apt(["libhunspell-dev"])]
        ),
        // MeCab (Debian's libmecab-dev) with IPAdic, for the real-word check of Japanese, which writes no spaces.
        // No pkg-config file ships with it; the module map names the library.
        .systemLibrary(
            name: "CMeCab",
            providers: [.apt(["libmecab-dev", "mecab-ipadic-utf8"])]
        ),
        // libthai and libdatrie (Debian's libthai-dev), for the real-word check of Thai.
        .systemLibrary(
            name: "CThai",
            pkgConfig: "libthai",
            providers: [.apt(["libthai-dev", "libdatrie-dev"])]
        ),
        // Snowball's stemmers (Debian's libstemmer-dev), so that word forms do not make two prompts different: the
        // near-duplicate rule. No pkg-config file ships with it; the module map names the library.
        .systemLibrary(
            name: "CStemmer",
            providers: [.apt(["libstemmer-dev"])]
        ),
        // The domain, the leaf every other layer stands on: photo metadata, prompts, language tags, the word rule,
        // the gate and its checks, what the model is asked for; value types and pure rules over Foundation, the C
        // shims of the field libraries (ICU, CLD2, Snowball) and swift-crypto's SHA-256. No HTTP, no database.
        .target(
            name: "PromptDomain",
            dependencies: [
                "CICU",
                "CCLD2",
                "CStemmer",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Templates and copy: loading, rendering, the fallback copy per language, hot reload (a lifecycle service).
        .target(
            name: "PromptTemplates",
            dependencies: [
                "PromptDomain",
                // Hunspell's dictionaries are files: opened here and handed to the domain's gate.
                "CHunspell",
                "CMeCab",
                "CThai",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The model behind one protocol: providers, the chain with its breakers and admission, libcurl's transport.
        .target(
            name: "PromptBackends",
            dependencies: [
                "PromptDomain",
                "CCurl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // libcurl's loop is stopped as a lifecycle service, after the server.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // What is kept: small store protocols by concern, SQLite and PostgreSQL side by side, the memory cache layer.
        .target(
            name: "PromptStores",
            dependencies: [
                "PromptDomain",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Generation and sessions: the pipeline (cache, single-flight, backends, the gate, re-ask), rounds, refreshes,
        // stats and the service's metrics.
        .target(
            name: "PromptGeneration",
            dependencies: [
                "PromptTemplates",
                "PromptBackends",
                "PromptStores",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Hummingbird server over the layers: configuration, wiring (buildApplication = buildServices +
        // buildRouter), controllers, middleware, idempotency, the admin API, eval.
        .target(
            name: "PhotoPrompts",
            dependencies: [
                "PromptGeneration",
                // The in-process `stub` backend's writer, wired where the app builds its backends.
                "StubModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // SIGHUP, which reloads the templates.
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: swiftSettings
        ),
        // The thin command-line entry point: `serve` (default), `render`, `generate`.
        .executableTarget(
            name: "photo-prompts",
            dependencies: [
                "PhotoPrompts",
                "PromptDomain",
                "PromptTemplates",
                "PromptStores",
                "PromptGeneration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                // OTLP export, built here at the top and handed to the app as a tracer.
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // The stub model's writing logic, pure Swift: shared by the in-process `stub` backend and `stub-llm`.
        .target(name: "StubModel", swiftSettings: swiftSettings),
        // The stub model server as a library, so tests can run it in process or as a child.
        .target(
            name: "StubLLM",
            dependencies: [
                "StubModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // For the durable baseline route of the cache-hit benchmark.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "stub-llm",
            dependencies: [
                "StubLLM",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // What both test layers share: the repository's paths, the configuration as the executable reads it.
        .target(
            name: "PhotoPromptsTestSupport",
            dependencies: [
                "PhotoPrompts",
                "PromptDomain",
                "PromptTemplates",
                "PromptBackends",
                "PromptStores",
                "StubModel",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/PhotoPromptsTestSupport",
            swiftSettings: swiftSettings
        ),
        // The fast layer: the pure rules and router tests (app.test(.router)), in process, in parallel.
        .testTarget(
            name: "PhotoPromptsTests",
            dependencies: [
                "PhotoPrompts",
                "PromptDomain",
                "PromptTemplates",
                "PromptBackends",
                "PromptStores",
                "PromptGeneration",
                "PhotoPromptsTestSupport",
                "StubModel",
                // stub-llm's replies, written in process for router tests (StubBehaviourBackend).
                "StubLLM",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                // SHA-256 worked out by the tests themselves, for the admin key's digest.
                .product(name: "Crypto", package: "swift-crypto"),
                // A tracer that keeps its spans, for the router tests of the request's spans.
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // The system layer: live sockets, stub-llm, child processes, PostgreSQL and nginx, one test at a time
        // (every suite is nested in the serialized SystemTests).
        .testTarget(
            name: "PhotoPromptsSystemTests",
            dependencies: [
                "PhotoPrompts",
                "PromptDomain",
                "PromptTemplates",
                "PromptBackends",
                "PromptStores",
                "PromptGeneration",
                "PhotoPromptsTestSupport",
                "StubLLM",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // To look at the SQLite file directly, e.g. that deleted rows are gone.
                .product(name: "GRDB", package: "GRDB.swift"),
                // To create and drop a database per PostgreSQL store test.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
